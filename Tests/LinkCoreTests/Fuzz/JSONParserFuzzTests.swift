import LinkCore
import TestSupport
import Testing

/// The JSON parser against a million seeded cases: random documents written out and read back equal, and
/// mutations of real bodies (claims, webhooks, imports) either parse or fail with an offset inside the input,
/// never crash, never hang, never go deeper than the limit.
@Suite struct JSONParserFuzzTests {
    /// Bodies the server reads: a claim, a RevenueCat event, an import file.
    static let seeds: [[UInt8]] = [
        #"{"public_id":"pk_acme","app_user_id":"u1","code":"SAM20","first_seen_at":"2026-01-31T12:00:00Z"}"#,
        #"{"api_version":"1.0","event":{"id":"e","type":"RENEWAL","price":4.99,"aliases":["a","b"],"x":null}}"#,
        #"{"organizations":[{"id":"org_a","programs":[{"commission":{"percent":12.5,"recurring":false}}]}]}"#,
        #"[1,-0.5e-3,true,false,null,"\u00e9\ud83d\ude00\n\"",{"":[[]]}]"#,
    ].map { Array($0.utf8) }
    static let alphabet = Array(#"{}[]":,\-+.eE0123456789 tfnul"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]

    @Test func aMillionMutatedBodiesParseOrFailCleanly() async {
        var generator = SeededGenerator(seed: 0x15_0E)
        let cases = SeededGenerator.cases(1_000_000)
        var parsed = 0
        for index in 0..<cases {
            // A long loop on the cooperative pool would starve the async tests running beside it.
            if index % 4096 == 0 { await Task.yield() }
            var bytes = Self.seeds[index % Self.seeds.count]
            bytes = generator.mutate(bytes, alphabet: index % 3 == 0 ? [] : Self.alphabet)
            do {
                let value = try JSONParser.parse(bytes)
                parsed += 1
                #expect(Self.depth(value) <= JSONParser.maximumDepth)
            } catch {
                if error.offset < 0 || error.offset > bytes.count {
                    Issue.record("case \(index): offset \(error.offset) outside \(bytes.count) bytes")
                    return
                }
            }
        }
        #expect(parsed > 0 && parsed < cases, "both outcomes are reached: \(parsed) of \(cases) parsed")
    }

    @Test func aMillionRandomDocumentsReadBackEqual() async throws {
        var generator = SeededGenerator(seed: 0xD0C)
        for index in 0..<SeededGenerator.cases(1_000_000) {
            if index % 4096 == 0 { await Task.yield() }
            let value = Self.randomValue(&generator, depth: 0)
            let text = Self.write(value)
            let parsed = try JSONParser.parse(Array(text.utf8))
            if parsed != value {
                Issue.record("case \(index): \(text) read back as \(parsed)")
                return
            }
        }
    }

    @Test func nestingPastTheLimitIsRefusedNotRecursedInto() {
        for depth in [JSONParser.maximumDepth, JSONParser.maximumDepth + 1, 100_000] {
            let bytes = [UInt8](repeating: 0x5B, count: depth) + [UInt8](repeating: 0x5D, count: depth)
            let result = Result { try JSONParser.parse(bytes) }
            #expect((try? result.get()) != nil ? depth <= JSONParser.maximumDepth : depth > JSONParser.maximumDepth)
        }
    }

    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): return 1 + (items.map(depth).max() ?? 0)
        case .object(let members): return 1 + (members.map { depth($0.value) }.max() ?? 0)
        default: return 0
        }
    }

    static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let numbers = ["0", "-1", "12.5", "4.99", "1e3", "-0.25E-2", "9007199254740993", "1234567890123"]
            return .number(numbers.randomElement(using: &generator)!)
        case 3:
            let pieces = ["a", "é", "😀", "\"", "\\", "\n", "\u{0}", "\u{1F}", "/", " ", "\u{2028}", "ab"]
            return .string(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)!
                }.joined())
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    randomValue(&generator, depth: depth + 1)
                })
        default:
            return .object(
                (0..<Int.random(in: 0...4, using: &generator)).map { index in
                    (key: "k\(index)", value: randomValue(&generator, depth: depth + 1))
                })
        }
    }

    /// JSON text for `value`, escaping what RFC 8259 requires.
    static func write(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return quoted(text)
        case .array(let items): return "[" + items.map(write).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quoted($0.key) + ":" + write($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
