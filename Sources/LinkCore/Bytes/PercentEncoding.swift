/// Percent-encoding (RFC 3986) of values placed into URLs, and decoding of path segments.
///
/// Everything but unreserved characters is encoded, so a hostile value can never end a query parameter,
/// start a fragment, change the host or smuggle a CR/LF into a `Location` header.
public enum PercentEncoding {
    /// `bytes` with every byte outside the unreserved set written as `%XX`.
    ///
    ///     PercentEncoding.encode(Array("a b/c".utf8))  // "a%20b%2Fc"
    public static func encode<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 3)
        for byte in bytes {
            if ASCII.isUnreserved(byte) {
                out.append(byte)
            } else {
                appendEscape(byte, to: &out)
            }
        }
        return out
    }

    /// The string form of ``encode(_:)``.
    public static func encode(_ text: String) -> String {
        String(decoding: encode(text.utf8), as: UTF8.self)
    }

    /// Appends `byte` to `output`, written as `%XX` when it is above ASCII: how a browser's URL parser sends the text
    /// of a URL beyond ASCII (`ü` as `%C3%BC`), everything else, `%` escapes among them, left as it is. A `Location`
    /// built so holds only ASCII (RFC 9110 §10.2.2), which a client that reads header bytes as Latin-1 reads right.
    @inline(__always)
    public static func appendEncodingNonASCII(_ byte: UInt8, to output: inout [UInt8]) {
        guard byte >= 0x80 else { return output.append(byte) }
        appendEscape(byte, to: &output)
    }

    /// Appends `byte` as `%XX`, in upper-case hex.
    @inline(__always)
    @usableFromInline static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output += [0x25, ASCII.hexDigits[Int(byte >> 4)], ASCII.hexDigits[Int(byte & 0x0F)]]
    }

    /// `bytes` (a path or a query as it came) with every byte a URL may not hold as it is written as `%XX`: all but
    /// the unreserved bytes, the sub-delimiters, `:`, `@`, `/`, `?` and `%` (RFC 3986), so that what is escaped
    /// stays escaped and the rest means the same in a `Location` header, which then holds no control byte, space
    /// or byte above ASCII.
    public static func escapedForLocation<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if ASCII.isUnreserved(byte) || locationBytes.contains(byte) {
                out.append(byte)
            } else {
                appendEscape(byte, to: &out)
            }
        }
        return out
    }

    /// The bytes besides the unreserved ones that ``escapedForLocation(_:)`` keeps.
    private static let locationBytes = Set("!$&'()*+,;=:@/?%".utf8)

    /// `bytes` with each byte above ASCII written as `%XX` (``appendEncodingNonASCII(_:to:)``).
    public static func encodeNonASCII<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes { appendEncodingNonASCII(byte, to: &out) }
        return out
    }

    /// Decodes `%XX` escapes of a path segment into `output`, returning the decoded length, or `nil` when
    /// an escape is malformed or the result would not fit. `+` stays a plus: this is a path, not a form.
    @inline(__always)
    public static func decodeSegment(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        var read = 0
        var written = 0
        while read < input.count {
            guard written < output.count else { return nil }
            var byte = input[read]
            if byte == 0x25 {
                guard read + 2 < input.count, let high = ASCII.hexValue(input[read + 1]),
                    let low = ASCII.hexValue(input[read + 2])
                else { return nil }
                byte = high << 4 | low
                read += 3
            } else {
                read += 1
            }
            output[written] = byte
            written += 1
        }
        return written
    }

    /// A path segment with its `%XX` escapes decoded: `segment` itself when it holds no `%` (nothing copied), else
    /// its bytes decoded into `scratch`; `nil` when an escape is malformed or the result would not fit.
    @inline(__always)
    public static func decodedSegment(
        _ segment: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer
    ) -> UnsafeRawBufferPointer? {
        guard segment.contains(0x25) else { return segment }
        return decodeSegment(segment, into: scratch).map { UnsafeRawBufferPointer(rebasing: scratch[..<$0]) }
    }
}
