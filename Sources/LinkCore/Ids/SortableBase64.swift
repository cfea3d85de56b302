/// Base64 over an alphabet in ASCII order (`-0-9A-Z_a-z`), so encoded ids sort the way their bytes do.
///
/// The alphabet is URL-safe: ids travel in paths, query strings and install referrers unescaped.
public enum SortableBase64 {
    @usableFromInline static let alphabet: [UInt8] = Array(
        "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    @usableFromInline static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Writes the encoding of `input` (whose length must be a multiple of 3) to `output`, 4 characters
    /// per 3 bytes, with no padding.
    @inline(__always)
    public static func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) {
        var out = 0
        var index = 0
        while index + 2 < input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.storeBytes(of: alphabet[Int(chunk >> 18 & 63)], toByteOffset: out, as: UInt8.self)
            output.storeBytes(of: alphabet[Int(chunk >> 12 & 63)], toByteOffset: out + 1, as: UInt8.self)
            output.storeBytes(of: alphabet[Int(chunk >> 6 & 63)], toByteOffset: out + 2, as: UInt8.self)
            output.storeBytes(of: alphabet[Int(chunk & 63)], toByteOffset: out + 3, as: UInt8.self)
            out += 4
            index += 3
        }
    }

    /// Decodes `text` (a multiple of 4 characters from the alphabet) into bytes, or `nil`.
    public static func decode<S: Collection>(_ text: S) -> [UInt8]? where S.Element == UInt8 {
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var chunk: UInt32 = 0
        var filled = 0
        for character in text {
            let value = reverse[Int(character)]
            guard value != 0xFF else { return nil }
            chunk = chunk << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                bytes.append(UInt8(chunk >> 16 & 0xFF))
                bytes.append(UInt8(chunk >> 8 & 0xFF))
                bytes.append(UInt8(chunk & 0xFF))
                chunk = 0
                filled = 0
            }
        }
        return bytes
    }
}
