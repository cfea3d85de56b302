import LinkCore

/// Query strings of API requests.
enum QueryString {
    /// The most parameters read from one query string.
    static let maximumParameters = 32

    /// Parses `a=1&b=x%20y` into a dictionary, percent-decoding names and values (`+` is a space). A name given more
    /// than once keeps its last value and is in `repeated`, for a caller that refuses it rather than guess; so is
    /// `problem`, what was left out: the parameters past ``maximumParameters``, or one whose name or value is not
    /// UTF-8 once decoded (`partner%FF_id=`).
    static func parse(_ bytes: UnsafeRawBufferPointer) -> (
        values: [String: String], repeated: Set<String>, problem: String?
    ) {
        var values: [String: String] = [:]
        var repeated: Set<String> = []
        var problem: String?
        let pairs = bytes.split(separator: 0x26)
        if pairs.count > maximumParameters { problem = "it has more than \(maximumParameters) parameters" }
        for pair in pairs.prefix(maximumParameters) {
            let parts = pair.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else {
                problem = problem ?? "a parameter's name or value is not UTF-8 once percent-decoded"
                continue
            }
            if values.updateValue(value, forKey: name) != nil { repeated.insert(name) }
        }
        return (values, repeated, problem)
    }

    static func decode(_ bytes: Slice<UnsafeRawBufferPointer>) -> String? {
        String(validating: percentDecoded(bytes).bytes, as: UTF8.self)
    }

    /// The bytes `encoded` stands for: `%XX` read as its byte, `+` as a space; and whether every `%` had two
    /// hexadecimal digits after it (one that has not is kept as written, which a lenient reader accepts and the
    /// dashboard's strict form reading refuses).
    static func percentDecoded<Encoded: RandomAccessCollection<UInt8>>(_ encoded: Encoded)
        -> (bytes: [UInt8], wellFormed: Bool) where Encoded.Index == Int
    {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count)
        var wellFormed = true
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == 0x25 {
                if index + 2 < encoded.endIndex, let high = ASCII.hexValue(encoded[index + 1]),
                    let low = ASCII.hexValue(encoded[index + 2])
                {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
                wellFormed = false
            }
            out.append(byte == 0x2B ? 0x20 : byte)
            index += 1
        }
        return (out, wellFormed)
    }
}
