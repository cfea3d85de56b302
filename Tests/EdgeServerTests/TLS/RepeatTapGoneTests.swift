import TestSupport
import Testing

/// A repeat tap (the same address and User-Agent within `--dedupe-window`) holds its answer until its click is
/// journaled, as a first tap does. A client that goes away the HTTP/2 way before that answer, by resetting its
/// stream with the request or by closing the connection, must leave the server serving and the loop's repeat-tap
/// table as it was: the next tap still gets the first tap's id, and a reset repeat counts nowhere.
///
/// One loop (`threads = 1`), so that every connection meets the first tap in the same table; repeat taps on with
/// the default window (1 h). The taps are an Android phone's: the sentinel of ``TLSTestServer`` taps as an iPhone,
/// so it is a first tap of its own, listed after every earlier record of the loop's journal is stored.
@Suite struct RepeatTapGoneTests {
    static let path = "/a/pk_acme/SAM20"

    static func server() throws -> TLSTestServer { try TLSTestServer { $0.threads = 1 } }

    /// A completed tap over HTTP/1.1 and TLS: its click id.
    static func tap(_ server: TLSTestServer) throws -> String {
        let response = try server.client().request("GET", path, headers: [("User-Agent", Agents.android)])
        guard response.status == 302, let id = LinkResponses.clickID(in: response) else {
            throw TestError("a tap got \(response.status) \(response.header("location") ?? "")")
        }
        return id
    }

    /// `org_acme`'s click counts, once every record journaled before the sentinel's is stored.
    static func countsAfterTheSentinel(_ server: TLSTestServer) throws -> (listed: Set<String>, counts: [String: [Int]])
    {
        let (clicks, _) = try server.clicksThroughSentinel()
        let stats = try server.client().request("GET", RepeatTapTests.statsPath, headers: RepeatTapTests.statsHeaders)
        return (Set(clicks), try RepeatTapTests.counts(in: stats))
    }

    @Test func repeatTapsResetWithTheirRequestRecordNothingAndTheNextTapGetsTheFirstId() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let first = try Self.tap(server)

        let client = try server.client(alpn: ["h2"])
        try #require(client.negotiatedProtocol == "h2")
        try client.write(HTTP2Frames.preface)
        var stream: UInt32 = 1
        let resets = 20
        for _ in 0..<resets {
            // The request and its cancel in one write, so in one TLS record: the server reads them together, holds
            // the repeat's answer, and sees the stream reset before the flush that would journal it.
            try client.write(
                HTTP2Frames.get(stream: stream, path: Self.path, userAgent: Agents.android)
                    + HTTP2Frames.cancel(stream: stream))
            stream += 2
        }
        // The same connection still serves: a request after the resets is answered, and none of them was.
        try client.write(HTTP2Frames.get(stream: stream, path: "/healthz", userAgent: Agents.android))
        let reader = HTTP2FrameReader(client)
        var answeredResets = 0
        var served = false
        while let frame = try reader.next() {
            guard frame.type == HTTP2Frames.FrameType.headers.rawValue else { continue }
            if frame.stream == stream {
                served = true
                break
            }
            answeredResets += 1
        }
        #expect(served, "the connection closed before its last request was answered")
        #expect(answeredResets == 0, "no reset request was answered")

        #expect(try Self.tap(server) == first, "the next tap is still a repeat of the first")
        let (listed, counts) = try Self.countsAfterTheSentinel(server)
        #expect(listed.contains(first) && listed.count == 2, "the first tap and the sentinel: \(listed)")
        // The first tap, the next one (a repeat) and the sentinel; the reset repeats count as nothing.
        #expect(counts == ["part_sam": [3, 2]], "\(counts)")
    }

    @Test func repeatTapsOnConnectionsClosedBeforeTheirAnswerLeaveTheFirstIdInPlace() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let first = try Self.tap(server)

        let closes = 5
        for _ in 0..<closes {
            // The request, then the connection closed at once, without reading (the client's deinit closes it).
            let client = try server.client(alpn: ["h2"])
            try #require(client.negotiatedProtocol == "h2")
            try client.write(
                HTTP2Frames.preface + HTTP2Frames.get(stream: 1, path: Self.path, userAgent: Agents.android))
        }

        #expect(try Self.tap(server) == first, "the server serves, and the next tap is still a repeat of the first")
        let (listed, counts) = try Self.countsAfterTheSentinel(server)
        #expect(listed.contains(first) && listed.count == 2, "the first tap and the sentinel: \(listed)")
        // Whether a closed connection's repeat counts depends on whether the server read the close in the loop
        // iteration that held its answer (then nothing is journaled) or later (then it was answered into the
        // closed socket, as any answer the client did not wait for): between none and all of them, and never a
        // unique click.
        let clicks = counts["part_sam"]?[0] ?? 0
        #expect((3...(3 + closes)).contains(clicks), "\(counts)")
        #expect(counts["part_sam"]?[1] == 2 && counts.count == 1, "\(counts)")
    }
}
