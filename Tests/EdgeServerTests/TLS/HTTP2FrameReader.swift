import TestSupport

/// Reads whole HTTP/2 frames off a TLS connection.
final class HTTP2FrameReader {
    private let client: TLSClient
    private var buffer: [UInt8] = []

    init(_ client: TLSClient) { self.client = client }

    /// The next frame, or `nil` once the server has closed the connection. Throws when nothing came in time.
    func next() throws -> (type: UInt8, flags: UInt8, stream: UInt32)? {
        while true {
            if let frame = HTTP2Frames.next(in: buffer, from: 0) {
                buffer.removeFirst(frame.size)
                return (frame.type, frame.flags, frame.stream)
            }
            let more = try client.read()
            if more.isEmpty { return nil }
            buffer += more
        }
    }

    /// Reads frames until a HEADERS frame on `stream`; `false` if the connection closed first.
    func waitForHeaders(on stream: UInt32) throws -> Bool {
        while let frame = try next() {
            if frame.type == HTTP2Frames.FrameType.headers.rawValue && frame.stream == stream { return true }
        }
        return false
    }
}
