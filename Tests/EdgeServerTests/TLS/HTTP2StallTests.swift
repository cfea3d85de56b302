import TestSupport
import Testing

@testable import EdgeServer

/// An HTTP/2 client that keeps its flow-control window at zero (SETTINGS_INITIAL_WINDOW_SIZE 0 and never a
/// WINDOW_UPDATE) gets the heads of its answers and none of their bodies. h2o 2.2 kept such a connection, its answers'
/// memory and its connection slot for ever (its idle timeout waits for no request to be in progress, and it has no
/// write timeout); the server closes it once its answers have waited on the window for 10 s, and the slot serves the
/// next client. Of its requests, h2o runs 16 at once (``H2OEngine/concurrentRequestsPerConnection``): the others wait
/// for one of those to finish, which none does, so they are never answered nor recorded.
@Suite struct HTTP2StallTests {
    static let streams = 20
    static let running = H2OEngine.concurrentRequestsPerConnection

    @Test func aClientKeepingItsWindowAtZeroIsClosedAndItsSlotServesTheNextClient() throws {
        // One loop with one connection slot, so the stalled connection holds the only one; every tap a click of its
        // own, so the store shows each answer's click once.
        let server = try TLSTestServer {
            $0.threads = 1
            $0.maxConnections = 1
            $0.repeatTapWindow = 0
        }
        defer { server.shutdown() }
        // Reads wait up to 20 s: longer than the stall bound, so a connection left open fails the read.
        let client = try server.client(alpn: ["h2"], timeout: 20)
        try #require(client.negotiatedProtocol == "h2")
        var requests = HTTP2Frames.preface(settings: [(HTTP2Frames.initialWindowSize, 0)])
        for index in 0..<Self.streams {
            requests += HTTP2Frames.get(
                stream: UInt32(2 * index + 1), path: "/a/pk_acme/SAM20", userAgent: Agents.desktop)
        }
        try client.write(requests)

        let reader = HTTP2FrameReader(client)
        var heads = 0
        var data = 0
        var lastHead = TestClock.now()
        var closedAt: Double?
        while closedAt == nil {
            let frame: (type: UInt8, flags: UInt8, stream: UInt32)?
            do { frame = try reader.next() } catch { break }  // 20 s without a frame or a close: left open
            guard let frame else {
                closedAt = TestClock.now()
                break
            }
            if frame.type == HTTP2Frames.FrameType.headers.rawValue {
                heads += 1
                lastHead = TestClock.now()
            }
            if frame.type == HTTP2Frames.FrameType.data.rawValue { data += 1 }
        }
        #expect(heads == Self.running, "the requests h2o ran at once were answered, their heads sent")
        #expect(data == 0, "no body went out through a window of zero")
        let stalled = try #require(closedAt.map { $0 - lastHead }, "the connection was still open after 20 s")
        // 10 s of waiting, seen by a look once a second: 10 to 11 s, and some room for a busy machine.
        #expect(stalled >= 9.5 && stalled < 14, "closed \(stalled) s after its last answer's head")

        // The slot is free again: the next client's tap is answered, and each stalled answer's click was stored
        // once (journaled before its head went out), neither lost nor counted twice by the close; the requests that
        // waited their turn recorded nothing.
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.count == Self.running + 1 && Set(clicks).count == clicks.count && clicks.contains(sentinel))
    }
}
