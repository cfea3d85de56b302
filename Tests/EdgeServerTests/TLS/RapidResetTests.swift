import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/2 rapid reset: a client that sends a request and cancels it at once, over and over on one connection,
/// records no click (a click is journaled with its answer, and a cancelled request gets none), and a connection that
/// resets more streams than it completes is closed.
@Suite struct RapidResetTests {
    static let pairs = 20_000

    @Test func twentyThousandRequestThenCancelPairsRecordNoClickAndTheConnectionIsClosed() throws {
        let server = try TLSTestServer()
        defer { server.shutdown() }
        // Reads give up after 3 s, well before h2o's own 10 s idle timeout would close the connection.
        let client = try server.client(alpn: ["h2"], timeout: 3)
        try #require(client.negotiatedProtocol == "h2")
        try client.write(HTTP2Frames.preface)
        var sent = 0
        var stream: UInt32 = 1
        var writeFailed = false
        while sent < Self.pairs {
            // 40 pairs (about 8 KiB) in one write, so in one TLS record: the server decrypts a record whole, so it
            // reads each cancel together with its request, as an attacker would make sure of.
            var batch: [UInt8] = []
            for _ in 0..<min(40, Self.pairs - sent) {
                batch += HTTP2Frames.get(stream: stream, path: "/a/pk_acme/SAM20", userAgent: Agents.iPhone)
                batch += HTTP2Frames.cancel(stream: stream)
                stream += 2
                sent += 1
            }
            do { try client.write(batch) } catch {
                writeFailed = true
                break
            }
        }
        // The server answers none of the cancelled requests and closes the connection.
        let reader = HTTP2FrameReader(client)
        var answered = 0
        var closed = false
        while true {
            let frame: (type: UInt8, flags: UInt8, stream: UInt32)?
            do { frame = try reader.next() } catch { break }  // nothing within 3 s: the connection stayed open
            guard let frame else {
                closed = true
                break
            }
            if frame.type == HTTP2Frames.FrameType.headers.rawValue { answered += 1 }
        }
        #expect(closed, "the connection was closed (the client wrote \(sent) pairs, a write failed: \(writeFailed))")
        #expect(answered == 0, "no cancelled request was answered")
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks == [sentinel], "\(clicks.count - 1) clicks recorded from cancelled requests")
    }

    /// Cancelling is not an attack in itself: a connection that completes as many requests as it cancels stays open,
    /// and each completed tap counts once, each cancelled one not at all.
    @Test func aConnectionCompletingAsManyRequestsAsItCancelsStaysOpenAndCountsOnlyItsAnswers() throws {
        // Repeat taps off: every completed tap is a click of its own, so the store counts them one by one.
        let server = try TLSTestServer { $0.repeatTapWindow = 0 }
        defer { server.shutdown() }
        let client = try server.client(alpn: ["h2"])
        try #require(client.negotiatedProtocol == "h2")
        try client.write(HTTP2Frames.preface)
        let reader = HTTP2FrameReader(client)
        let rounds = 300
        var stream: UInt32 = 1
        for round in 0..<rounds {
            try client.write(HTTP2Frames.get(stream: stream, path: "/a/pk_acme/SAM20", userAgent: Agents.iPhone))
            try #require(try reader.waitForHeaders(on: stream), "round \(round): the connection closed")
            stream += 2
            try client.write(
                HTTP2Frames.get(stream: stream, path: "/a/pk_acme/SAM20", userAgent: Agents.iPhone)
                    + HTTP2Frames.cancel(stream: stream))
            stream += 2
        }
        try client.write(HTTP2Frames.get(stream: stream, path: "/a/pk_acme/SAM20", userAgent: Agents.iPhone))
        #expect(try reader.waitForHeaders(on: stream), "the connection is still open after \(rounds) cancels")
        let (clicks, _) = try server.clicksThroughSentinel()
        #expect(clicks.count == rounds + 1 + 1, "one click per answered tap, and the sentinel's")
    }
}
