/// Just enough HTTP/2 (RFC 9113) and HPACK (RFC 7541) to write a client's frames by hand: the preface, SETTINGS,
/// a HEADERS frame for a GET, RST_STREAM; and to read frame headers back. Header blocks use literals without
/// indexing (no Huffman, no dynamic table), so every frame is independent of the others: a test can reset any
/// stream at any point.
package enum HTTP2Frames {
    /// Frame types the tests write or look for.
    package enum FrameType: UInt8 {
        case data = 0, headers = 1, rstStream = 3, settings = 4, ping = 6, goaway = 7, windowUpdate = 8
    }

    /// The connection preface and an empty SETTINGS frame.
    package static let preface: [UInt8] = preface(settings: [])

    /// The connection preface and a SETTINGS frame with `settings` (identifier, value).
    package static func preface(settings: [(identifier: UInt16, value: UInt32)]) -> [UInt8] {
        var payload: [UInt8] = []
        for (identifier, value) in settings {
            payload += [UInt8(identifier >> 8), UInt8(identifier & 0xFF)]
            payload += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        return Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(.settings, 0, 0, payload)
    }

    /// SETTINGS_INITIAL_WINDOW_SIZE (RFC 9113 6.5.2): how many bytes of each stream's DATA the peer may send before
    /// a WINDOW_UPDATE.
    package static let initialWindowSize: UInt16 = 0x4

    /// A frame: 24-bit length, type, flags, 31-bit stream id, payload.
    package static func frame(_ type: FrameType, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type.rawValue, flags]
            + [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)]
            + payload
    }

    /// A complete GET on `stream` (END_STREAM, END_HEADERS).
    package static func get(stream: UInt32, path: String, scheme: String = "https", userAgent: String) -> [UInt8] {
        var block: [UInt8] = [0x82, scheme == "https" ? 0x87 : 0x86]  // :method GET, :scheme (static table)
        block += literal(nameIndex: 4, value: path)  // :path
        block += literal(nameIndex: 1, value: "localhost")  // :authority
        block += literal(nameIndex: 58, value: userAgent)  // user-agent
        return frame(.headers, 0x05, stream, block)
    }

    /// RST_STREAM with CANCEL (0x8), what a browser sends when it no longer wants an answer.
    package static func cancel(stream: UInt32) -> [UInt8] { frame(.rstStream, 0, stream, [0, 0, 0, 8]) }

    /// A SETTINGS acknowledgement.
    package static let settingsAck = frame(.settings, 0x01, 0, [])

    /// A header frame's fields, read from the front of `bytes`; `nil` until the whole frame is there.
    package static func next(in bytes: [UInt8], from offset: Int) -> (
        type: UInt8, flags: UInt8, stream: UInt32, size: Int
    )? {
        guard bytes.count - offset >= 9 else { return nil }
        let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
        guard bytes.count - offset >= 9 + length else { return nil }
        let stream =
            UInt32(bytes[offset + 5] & 0x7F) << 24 | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 8
            | UInt32(bytes[offset + 8])
        return (bytes[offset + 3], bytes[offset + 4], stream, 9 + length)
    }

    /// A literal header field without indexing, its name from the static table.
    private static func literal(nameIndex: Int, value: String) -> [UInt8] {
        integer(nameIndex, prefixBits: 4, flags: 0x00) + integer(value.utf8.count, prefixBits: 7, flags: 0x00)
            + Array(value.utf8)
    }

    /// HPACK's integer: `prefixBits` in the first byte, then 7 bits a byte.
    private static func integer(_ value: Int, prefixBits: Int, flags: UInt8) -> [UInt8] {
        let limit = (1 << prefixBits) - 1
        guard value >= limit else { return [flags | UInt8(value)] }
        var bytes: [UInt8] = [flags | UInt8(limit)]
        var rest = value - limit
        while rest >= 128 {
            bytes.append(UInt8(rest & 0x7F | 0x80))
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }
}
