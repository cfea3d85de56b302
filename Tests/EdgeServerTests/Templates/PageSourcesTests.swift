import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// The pages come from the `.html` files in Sources/EdgeServer/Templates, embedded by SwiftPM with nothing in
/// between that could trim or re-encode them, and the two templates among them compile.
@Suite struct PageSourcesTests {
    /// By file name; the test arguments are the names alone, so a test log does not print whole pages.
    static let pages = [
        "fallback.html": PageSources.fallback, "preview.html": PageSources.preview,
        "not-found.html": PageSources.notFound,
    ]

    @Test(arguments: ["fallback.html", "preview.html", "not-found.html"])
    func pageIsItsFile(name: String) throws {
        let root = try #require(TestFiles.repositoryRoot)
        let file = root + "/Sources/EdgeServer/Templates/" + name
        #expect(try Self.pages[name] == String(contentsOfFile: file, encoding: .utf8))
    }

    @Test(arguments: PageLanguage.allCases)
    func wordsAreTheirFile(language: PageLanguage) throws {
        let root = try #require(TestFiles.repositoryRoot)
        let file = root + "/Sources/EdgeServer/Templates/Words/words-\(language.tag).txt"
        #expect(try language.wordsSource == String(contentsOfFile: file, encoding: .utf8))
    }

    /// Every language has every word, and each page of each language compiles with its `lang` set and no `[[key]]`
    /// left over.
    @Test func everyLanguageCompilesWithAllItsWords() throws {
        let words = try PageWords.all()
        #expect(words.map(\.language) == PageLanguage.allCases)
        for language in PageLanguage.allCases {
            let localized = words[language.rawValue]
            for (name, source) in Self.pages {
                let page = try localized.localize(source)
                #expect(page.contains(#"<html lang="\#(language.tag)">"#), "\(name) in \(language.tag)")
                #expect(!page.contains("[["), "\(name) in \(language.tag)")
                _ = try PageTemplate(page)
            }
        }
        #expect(try Pages.standard.get().languages.map(\.language) == PageLanguage.allCases)
    }

    /// Words are HTML-escaped as they go into the markup, and their `{{field}}` values stay fields.
    @Test func wordsAreEscapedAndKeepTheirFields() throws {
        let words = try PageWords(.french, source: "a = l'app <b> {{partner_name}}\n# comment\n\nb=x")
        // Elsewhere (a `<title>`, an attribute: no markup), with Unicode's isolates when a value is right-to-left.
        #expect(
            try words.localize("<p>[[a]]|[[b]]|[[lang]]</p>") == "<p>l&#39;app &lt;b&gt; {{partner_name|bidi}}|x|fr</p>"
        )
        #expect(throws: TemplateError.self) { try words.localize("[[missing]]") }
        // In an element's content, each value of the text is isolated for the bidirectional algorithm.
        #expect(try words.localize("<p>[[a|isolated]]</p>") == "<p>l&#39;app &lt;b&gt; <bdi>{{partner_name}}</bdi></p>")
        #expect(throws: TemplateError.self) { try words.localize("[[missing|isolated]]") }
        #expect(try words.localize("[[a|other]]") == "[[a|other]]", "not a key: left as it is")
        #expect(throws: TemplateError.self) { try PageWords(.french, source: "a = 1\na = 2") }
        #expect(throws: TemplateError.self) { try PageWords(.french, source: "no equals sign") }
    }
}
