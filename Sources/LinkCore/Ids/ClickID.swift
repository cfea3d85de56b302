/// The layout of a click id: `clk_` then 40 characters of ``SortableBase64`` over 30 bytes.
///
/// | bytes | field |
/// | --- | --- |
/// | 0–5 | creation time, milliseconds since 1970, big-endian: ids sort by time and the store's index appends |
/// | 6–9 | the code's reference (its row number in the store), big-endian |
/// | 10–17 | random bytes |
/// | 18–29 | the first 12 bytes of an HMAC-SHA256 over bytes 0–17 under the store's signing key |
///
/// The signature proves which code, and so which partner, program and organization, a click belongs to,
/// so a claim can use a click the ingester has not moved into the store yet. 64 random and 96 signed bits
/// make the id unguessable.
public struct ClickID: Sendable, Equatable {
    public static let prefix: [UInt8] = Array("clk_".utf8)
    public static let byteCount = 30
    public static let signedByteCount = 18
    public static let tagByteCount = 12
    /// The length of the text form, `clk_` included.
    public static let encodedLength = 4 + 40

    public var timestampMilliseconds: UInt64
    public var codeReference: UInt32
    public var random: UInt64
    public var tag: [UInt8]

    public init(timestampMilliseconds: UInt64, codeReference: UInt32, random: UInt64, tag: [UInt8]) {
        self.timestampMilliseconds = timestampMilliseconds
        self.codeReference = codeReference
        self.random = random
        self.tag = tag
    }

    /// Writes the 18 signed bytes (time, code reference, random) into `output`.
    @inline(__always)
    public static func writeSignedBytes(
        timestampMilliseconds: UInt64, codeReference: UInt32, random: UInt64, into output: UnsafeMutableRawPointer
    ) {
        for index in 0..<6 {
            output.storeBytes(
                of: UInt8(truncatingIfNeeded: timestampMilliseconds >> UInt64(40 - 8 * index)), toByteOffset: index,
                as: UInt8.self)
        }
        for index in 0..<4 {
            output.storeBytes(
                of: UInt8(truncatingIfNeeded: codeReference >> UInt32(24 - 8 * index)), toByteOffset: 6 + index,
                as: UInt8.self)
        }
        for index in 0..<8 {
            output.storeBytes(
                of: UInt8(truncatingIfNeeded: random >> UInt64(56 - 8 * index)), toByteOffset: 10 + index,
                as: UInt8.self)
        }
    }

    /// Writes the text form of 30 raw id bytes into `output`, which must hold ``encodedLength`` bytes.
    @inline(__always)
    public static func encode(_ raw: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) {
        prefix.withUnsafeBytes { output.copyMemory(from: $0.baseAddress!, byteCount: 4) }
        SortableBase64.encode(raw, into: output + 4)
    }

    /// The first 12 characters of every id created at `milliseconds` (`clk_` and the 6 bytes of time, which encode
    /// to exactly 8 characters): ids of clicks created before that time sort below it, ids created at or after it
    /// do not. Times outside 0..<2^48 are clamped.
    public static func timePrefix(milliseconds: Int64) -> String {
        let time = UInt64(max(0, min(milliseconds, (1 << 48) - 1)))
        var raw = [UInt8](repeating: 0, count: 6)
        for index in 0..<6 { raw[index] = UInt8(truncatingIfNeeded: time >> UInt64(40 - 8 * index)) }
        var text = [UInt8](repeating: 0, count: 8)
        raw.withUnsafeBytes { input in
            text.withUnsafeMutableBytes { SortableBase64.encode(input, into: $0.baseAddress!) }
        }
        return String(decoding: prefix + text, as: UTF8.self)
    }

    /// Parses a text id; `nil` when it is not shaped like one. The signature is checked by the caller.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == Self.encodedLength, bytes.starts(with: Self.prefix),
            let raw = SortableBase64.decode(bytes[4...]), raw.count == Self.byteCount
        else { return nil }
        timestampMilliseconds = raw[0..<6].reduce(0) { $0 << 8 | UInt64($1) }
        codeReference = raw[6..<10].reduce(0) { $0 << 8 | UInt32($1) }
        random = raw[10..<18].reduce(0) { $0 << 8 | UInt64($1) }
        tag = Array(raw[18..<30])
    }

    /// The 18 bytes the tag signs.
    public var signedBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.signedByteCount)
        bytes.withUnsafeMutableBytes {
            Self.writeSignedBytes(
                timestampMilliseconds: timestampMilliseconds, codeReference: codeReference, random: random,
                into: $0.baseAddress!)
        }
        return bytes
    }
}
