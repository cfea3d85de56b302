import LinkCore

/// Query strings of API requests.
enum QueryString {
    /// The most parameters read from one query string.
    static let maximumParameters = 32

    /// Parses `a=1&b=x%20y` into a dictionary, percent-decoding names and values (`+` is a space).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [String: String] {
        var result: [String: String] = [:]
        for pair in bytes.split(separator: 0x26).prefix(maximumParameters) {
            let parts = pair.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { continue }
            result[name] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }

    static func decode(_ bytes: Slice<UnsafeRawBufferPointer>) -> String? {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x25, index + 2 < bytes.endIndex, let high = ASCII.hexValue(bytes[index + 1]),
                let low = ASCII.hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == 0x2B ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }
}
