import Testing

@testable import EdgeServer

/// `Accept-Language` → the pages' language, with no sockets: q-values, region subtags, `*`, `q=0`, malformed and
/// oversized headers. (`LinkLanguageTests` sends the same headers to a real server.)
@Suite struct AcceptLanguageTests {
    struct Case: CustomStringConvertible, Sendable {
        var header: String
        var expected: PageLanguage
        var description: String { "\(header.prefix(60)) → \(expected.tag)" }
        init(_ header: String, _ expected: PageLanguage) {
            self.header = header
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        // No preference, or one the pages cannot meet: English.
        Case("", .english),
        Case("en", .english),
        Case("ja", .english),
        Case("zh-Hant-TW, ko;q=0.8", .english),
        // The primary subtag decides, in any case.
        Case("de", .german), Case("DE", .german), Case("de-CH", .german), Case("de-CH-1996", .german),
        Case("fr-CA", .french), Case("es-419", .spanish), Case("pt-BR", .portuguese), Case("PT-pt", .portuguese),
        // A browser's usual list: the first supported language with the highest q.
        Case("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", .german),
        Case("ja-JP, fr;q=0.5, en;q=0.4", .french),
        Case("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", .french),
        // q-values, not order, decide; equal q: the first named.
        Case("fr;q=0.4, es;q=0.9", .spanish),
        Case("en;q=0.5, pt;q=0.500", .english),
        Case("pt;q=0.5, en;q=0.5", .portuguese),
        Case("es;q=0.001, ja", .spanish),
        Case("de;q=1.000, fr;q=1", .german),
        Case("de;Q=0.2, fr;q=0.1", .german),
        // A language named twice takes its highest q.
        Case("fr;q=0.1, es;q=0.5, fr-CA;q=0.9", .french),
        // q=0 excludes.
        Case("en;q=0, pt;q=0.1", .portuguese),
        Case("de;q=0", .english),
        Case("de;q=0.000, es", .spanish),
        // `*` is every language not named.
        Case("*", .english),
        Case("en;q=0, *;q=0.5", .german),
        Case("en;q=0, de;q=0, *", .french),
        Case("ja, *;q=0.1", .english),
        Case("*;q=0.5, es;q=0.6", .spanish),
        Case("*;q=0", .english),
        // Spaces and tabs around separators, and empty list elements, are allowed.
        Case("  de ;  q=0.3 ,\tfr ; q=0.2 ", .german),
        Case(",, ,es,", .spanish),
        // Malformed: English, whatever else the header says.
        Case("de;q=abc", .english),
        Case("de;q=1.5", .english),
        Case("de;q=0.1234", .english),
        Case("de;q=", .english),
        Case("de;level=1", .english),
        Case("de fr", .english),
        Case("de;;q=0.5", .english),
        Case("toolongsubtag", .english),
        Case("de-", .english),
        Case("de-ninechars", .english),
        Case("d€", .english),
        Case("\"de\"", .english),
        Case("fr, de;q=0.5;", .english),
        Case(";;;==,,", .english),
    ]

    @Test(arguments: cases)
    func choosesTheLanguage(_ test: Case) {
        let chosen = Array(test.header.utf8).withUnsafeBytes { AcceptLanguage.preferred($0) }
        #expect(chosen == test.expected)
    }

    /// Only the first ``AcceptLanguage/maximumLength`` bytes are read; the range cut by the limit is dropped, the
    /// ones before it count.
    @Test func aLongHeaderIsReadUpToItsLimit() {
        func preferred(_ header: String) -> PageLanguage {
            Array(header.utf8).withUnsafeBytes { AcceptLanguage.preferred($0) }
        }
        let filler = String(repeating: "ja;q=0.1, ", count: 2_000)  // 20,000 bytes
        #expect(preferred("de, " + filler) == .german)
        #expect(preferred(filler + "de") == .english, "past the limit")
        #expect(preferred(String(repeating: "x", count: 100_000)) == .english)
        // A range that ends exactly at the limit's comma counts; one cut by it does not.
        let pad = String(repeating: "ja,", count: (AcceptLanguage.maximumLength - 3) / 3)
        let head = pad + String(repeating: " ", count: AcceptLanguage.maximumLength - 3 - pad.utf8.count)
        #expect(preferred(head + "fr," + filler) == .french)
        #expect(preferred(head + " fr-CA," + filler) == .english)
    }
}
