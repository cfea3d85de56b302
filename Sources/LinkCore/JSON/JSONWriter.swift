/// Builds compact JSON text for API answers, escaping every string.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends a JSON string literal with the required escapes (quotes, backslash, control characters).
    public mutating func string(_ text: String) {
        bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(ASCII.hexDigits[Int(byte >> 4)])
                bytes.append(ASCII.hexDigits[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// Appends raw JSON text such as `true`, `null`, a number or punctuation.
    public mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Appends `"key":`.
    public mutating func key(_ name: String) {
        string(name)
        bytes.append(0x3A)
    }

    /// Appends a string, or `null`.
    public mutating func optionalString(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// Writes an array of `items`, each written by `element`, with `separator` between them (`,`, or `,\n` for a
    /// list printed one item a line).
    public mutating func array<Items: Sequence>(
        _ items: Items, separator: String = ",", _ element: (Items.Element, inout JSONWriter) -> Void
    ) {
        raw("[")
        for (index, item) in items.enumerated() {
            if index > 0 { raw(separator) }
            element(item, &self)
        }
        raw("]")
    }

    /// Writes an object whose members `body` appends, with commas between them handled by `ObjectWriter`.
    public mutating func object(_ body: (inout ObjectWriter) -> Void) {
        var writer = ObjectWriter(json: self)
        bytes = []
        writer.json.raw("{")
        body(&writer)
        writer.json.raw("}")
        self = writer.json
    }

    /// Appends members of an object, commas included.
    public struct ObjectWriter {
        var json: JSONWriter
        var first = true

        public mutating func member(_ name: String, _ value: (inout JSONWriter) -> Void) {
            if !first { json.raw(",") }
            first = false
            json.key(name)
            value(&json)
        }

        public mutating func string(_ name: String, _ text: String?) { member(name) { $0.optionalString(text) } }
        public mutating func raw(_ name: String, _ text: String) { member(name) { $0.raw(text) } }
    }
}
