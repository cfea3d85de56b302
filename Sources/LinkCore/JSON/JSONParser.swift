/// A strict RFC 8259 parser with bounded nesting, for request bodies and configuration files.
public struct JSONParser {
    /// Why a document was refused, with the byte offset where it went wrong.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var offset: Int
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// The deepest nesting accepted; deeper documents are refused rather than risking the stack.
    public static let maximumDepth = 64

    /// What a `\uD800`-style escape of half a UTF-16 surrogate pair, with no other half beside it, becomes.
    public enum UnpairedSurrogates: Sendable {
        /// The document is refused: a claim or a configuration holding one is broken.
        case refused
        /// U+FFFD, as a UTF-16 decoder reads it. RFC 8259 (8.2) allows such strings, and a RevenueCat event carries
        /// the app's own text (`subscriber_attributes`), which a JavaScript, Java or Dart string can cut mid-emoji.
        case replaced
    }

    private let bytes: [UInt8]
    private let unpairedSurrogates: UnpairedSurrogates
    private var index = 0
    private var depth = 0
    /// Where each escape (`\uD83D`, six bytes) of half a surrogate pair starts, when they are
    /// ``UnpairedSurrogates/replaced``.
    private var unpairedEscapes: [Int] = []

    /// Parses one JSON document (surrounding whitespace allowed).
    ///
    ///     try JSONParser.parse(Array(#"{"a":[1,true]}"#.utf8))["a"]
    public static func parse(_ bytes: [UInt8], unpairedSurrogates: UnpairedSurrogates = .refused) throws(Failure)
        -> JSONValue
    {
        var parser = JSONParser(bytes: bytes, unpairedSurrogates: unpairedSurrogates)
        return try parser.document()
    }

    /// `bytes`, a JSON document, with every escape of half a surrogate pair (``UnpairedSurrogates``) written
    /// `\ufffd`, the character ``UnpairedSurrogates/replaced`` reads it as, and nothing else changed; `nil` when
    /// `bytes` is not a JSON document.
    ///
    /// RFC 8259 (8.2) allows such an escape but calls what readers make of it unpredictable, and many refuse the
    /// whole document: Foundation's `JSONSerialization` and `JSONDecoder`, jq 1.6. What a server passes on as it came
    /// in (a RevenueCat event's body) goes out readable by them, meaning what the server read.
    ///
    ///     JSONParser.replacingUnpairedSurrogateEscapes(in: Array(#"["\ud83d!"]"#.utf8))  // ["\ufffd!"]
    public static func replacingUnpairedSurrogateEscapes(in bytes: [UInt8]) -> [UInt8]? {
        var parser = JSONParser(bytes: bytes, unpairedSurrogates: .replaced)
        guard (try? parser.document()) != nil else { return nil }
        var replaced = bytes
        for start in parser.unpairedEscapes {
            replaced.replaceSubrange(start..<start + 6, with: "\\ufffd".utf8)
        }
        return replaced
    }

    /// One document, with the whitespace around it.
    private mutating func document() throws(Failure) -> JSONValue {
        skipWhitespace()
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the document") }
        return value
    }

    private init(bytes: [UInt8], unpairedSurrogates: UnpairedSurrogates) {
        self.bytes = bytes
        self.unpairedSurrogates = unpairedSurrogates
    }

    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                || bytes[index] == 0x09
        {
            index += 1
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case 0x7B: return try object()
        case 0x5B: return try array()
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return .number(try number())
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        index += count
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nest()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x7D {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x22 else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == 0x3A else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input") }
            if bytes[index] == 0x2C {
                index += 1
                continue
            }
            guard bytes[index] == 0x7D else { throw failure("expected ',' or '}'") }
            index += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nest()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == 0x5D {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input") }
            if bytes[index] == 0x2C {
                index += 1
                continue
            }
            guard bytes[index] == 0x5D else { throw failure("expected ',' or ']'") }
            index += 1
            depth -= 1
            return .array(items)
        }
    }

    private mutating func number() throws(Failure) -> String {
        let start = index
        if bytes[index] == 0x2D { index += 1 }
        guard index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 else {
            throw failure("invalid number")
        }
        if bytes[index] == 0x30 {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            guard skipDigits() > 0 else { throw failure("invalid number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard skipDigits() > 0 else { throw failure("invalid number") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        return index - start
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case 0x22:
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8")
                }
                return text
            case 0x5C:
                try escape(into: &out)
            case 0..<0x20:
                throw failure("control character in string")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        let start = index
        index += 1
        guard index < bytes.count else { throw failure("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case 0x22, 0x5C, 0x2F: out.append(byte)
        case 0x62: out.append(0x08)
        case 0x66: out.append(0x0C)
        case 0x6E: out.append(0x0A)
        case 0x72: out.append(0x0D)
        case 0x74: out.append(0x09)
        case 0x75:
            var scalar = try hex4()
            if scalar >= 0xD800 && scalar < 0xDC00 {
                let afterHigh = index
                var low: UInt32 = 0
                if index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 {
                    index += 2
                    low = try hex4()
                }
                if low >= 0xDC00 && low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    // The escape after it (if any) is read on its own.
                    index = afterHigh
                    scalar = try unpairedSurrogate(at: start)
                }
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                scalar = try unpairedSurrogate(at: start)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape") }
            out.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw failure("invalid escape")
        }
    }

    /// U+FFFD for half a surrogate pair, whose escape starts at `start`, or the failure, as ``UnpairedSurrogates``
    /// says.
    private mutating func unpairedSurrogate(at start: Int) throws(Failure) -> UInt32 {
        guard unpairedSurrogates == .replaced else { throw failure("unpaired surrogate") }
        unpairedEscapes.append(start)
        return 0xFFFD
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("invalid escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = ASCII.hexValue(bytes[index]) else { throw failure("invalid escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
