import Testing

@testable import LinkCore

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" {"a":[1,-2.5e3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}} "#)
        #expect(
            value["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null, .string("x\né😀")]))
        #expect(value["b"] == .object([]))
        #expect(value["a"]?.integer == nil)
        #expect(try parse("12345678901234").integer == 12_345_678_901_234)
        #expect(try parse("1.5").integer == nil)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"", "\"\u{01}\"", "tru", "{\"a\" 1}", "[1] [2]",
        "\"\\ud800\"", "\"\\udc00x\"", "{'a':1}", "NaN",
    ])
    func refusesInvalidDocuments(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { try parse(text) }
    }

    /// A RevenueCat event reads half a surrogate pair as U+FFFD (the app's text can hold one); the escape after a
    /// lone high half is read on its own, and a whole pair is still one character.
    @Test func unpairedSurrogatesCanBeReadAsTheReplacementCharacter() throws {
        func replaced(_ text: String) throws -> JSONValue {
            try JSONParser.parse(Array(text.utf8), unpairedSurrogates: .replaced)
        }
        #expect(try replaced(#""Sam \ud83d""#) == .string("Sam \u{FFFD}"))
        #expect(try replaced(#""\ude00x""#) == .string("\u{FFFD}x"))
        #expect(try replaced(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(try replaced(#""\ud83d\ud83d\ude00""#) == .string("\u{FFFD}😀"))
        #expect(try replaced(#""\udc00\ud800""#) == .string("\u{FFFD}\u{FFFD}"))
        #expect(try replaced(#""\ud83d\ude00""#) == .string("😀"))
        #expect(throws: JSONParser.Failure.self) { try replaced(#""\ud83d\u00""#) }
        #expect(throws: JSONParser.Failure.self) { try parse(#""\ud83d\u0041""#) }
    }

    /// The text a server passes on as it came in, with every escape of half a pair written `\ufffd` (the same six
    /// bytes) and nothing else touched: not a whole pair, not a `\\ud83d` that is an escaped backslash and text, not
    /// a member name's escapes or anything outside strings. The result parses strictly, to what `.replaced` read.
    @Test func unpairedSurrogateEscapesAreWrittenAsTheReplacementCharacter() throws {
        func replacing(_ text: String) -> String? {
            JSONParser.replacingUnpairedSurrogateEscapes(in: Array(text.utf8)).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        let cases = [
            (#""Sam \ud83d""#, #""Sam \ufffd""#), (#""\uDE00x""#, #""\ufffdx""#),
            (#""\ud83d\u0041""#, #""\ufffd\u0041""#), (#""\ud83d\ud83d\ude00""#, #""\ufffd\ud83d\ude00""#),
            (#""\udc00\ud800""#, #""\ufffd\ufffd""#), (#""\uD83D\uDE00""#, #""\uD83D\uDE00""#),
            (#""\\ud83d""#, #""\\ud83d""#),
            (#"{"\ud83d" : [ "\\\ud83d", 1e3 ] }"#, #"{"\ufffd" : [ "\\\ufffd", 1e3 ] }"#),
            (" [\"plain\", true, null] ", " [\"plain\", true, null] "),
        ]
        for (text, expected) in cases {
            let replaced = try #require(replacing(text), "\(text)")
            #expect(replaced == expected, "\(text)")
            #expect(
                try JSONParser.parse(Array(replaced.utf8))
                    == JSONParser.parse(Array(text.utf8), unpairedSurrogates: .replaced),
                "\(text)")
        }
        for invalid in ["", #""\ud83d\u00""#, "[1,]", #""\ud83d"x"#] {
            #expect(replacing(invalid) == nil, "\(invalid)")
        }
    }

    @Test func repeatedMemberPathNamesTheFirstRepeat() throws {
        #expect(try parse(#"{"a":1,"b":{"c":[1,{"d":2}]}}"#).repeatedMemberPath == nil)
        #expect(try parse(#"{"a":{"b":1},"c":{"b":2}}"#).repeatedMemberPath == nil, "names repeat across objects")
        #expect(try parse(#"{"a":1,"a":1}"#).repeatedMemberPath == "a")
        #expect(try parse(#"{"a":1,"\u0061":2}"#).repeatedMemberPath == "a", "escapes are read first")
        #expect(try parse(#"{"x":{"b":1,"b":2},"x":3}"#).repeatedMemberPath == "x", "the outer repeat first")
        #expect(try parse(#"{"a":{"b":1,"b":2}}"#).repeatedMemberPath == "a.b")
        #expect(try parse(#"{"a":[{},[{"c":1,"c":2}]]}"#).repeatedMemberPath == "a[1][0].c")
        #expect(try parse(#"[{"c":1,"c":2}]"#).repeatedMemberPath == "[0].c")
        // Names are compared by code point, as JSON does: a composed and a decomposed "é" are two names, and so
        // are "K" and the Kelvin sign, which Swift's `String` calls equal.
        #expect(try parse(#"{"a":{"\u00e9":1,"e\u0301":2}}"#).repeatedMemberPath == nil)
        #expect(try parse(#"{"K":1,"\u212a":2}"#).repeatedMemberPath == nil)
    }

    @Test func refusesInvalidUTF8AndDeepNesting() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
        #expect(throws: JSONParser.Failure.self) { try parse(String(repeating: "[", count: 100_000)) }
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) }
    }

    @Test func writerEscapesStrings() {
        var json = JSONWriter()
        json.object {
            $0.string("k", "a\"b\\c\n\u{01}</script>")
            $0.string("n", nil)
            $0.raw("t", "true")
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"k":"a\"b\\c\n\u0001</script>","n":null,"t":true}"#)
        #expect((try? JSONParser.parse(json.bytes))?["k"] == .string("a\"b\\c\n\u{01}</script>"))
    }
}
