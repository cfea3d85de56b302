import Foundation
import TestSupport
import Testing

/// The docs' Swift blocks are the code this target compiles: README's "In your app" and the DocC catalog's
/// getting-started article and landing page print `ProductDocsSnippet.swift`, and the article's error handling
/// `ErrorHandlingSnippet.swift`, each without comments and stand-in lines, whitespace aside. Editing one side
/// alone fails here, so the docs and the compiled snippet cannot drift apart silently.
@Suite struct ProductDocsTextTests {
    /// The article's sections whose Swift blocks, in order, are the product snippet.
    static let claimSections = [
        "### Configure at launch", "### Claim a code the user types", "### Claim the link that opened the app",
        "### Claim a click id",
    ]

    @Test func readmesInYourAppIsTheCompiledSnippet() throws {
        let readme = try Self.file("README.md")
        let blocks = Self.swiftBlocks(try Self.section("## In your app", of: readme))
        #expect(blocks.count == 1)
        let snippet = try Self.compiledCode("Tests/ToltDocsTests/ProductDocsSnippet.swift")
        #expect(
            snippet.contains(
                #"Tolt.configure(publicId:"YOUR_PUBLIC_KEY",baseURL:URL(string:"https://links.example.com")!)"#))
        Self.expectSame(Self.docsCode(blocks), snippet, "README.md, In your app")
    }

    @Test func theGettingStartedArticleIsTheCompiledSnippets() throws {
        let article = try Self.file("Sources/Tolt/Tolt.docc/GettingStarted.md")
        let blocks = try Self.claimSections.flatMap { Self.swiftBlocks(try Self.section($0, of: article)) }
        let snippet = try Self.compiledCode("Tests/ToltDocsTests/ProductDocsSnippet.swift")
        Self.expectSame(Self.docsCode(blocks), snippet, "GettingStarted.md, claim sections")

        let errors = Self.swiftBlocks(try Self.section("### Handle errors", of: article))
        #expect(errors.count == 1)
        let handling = try Self.compiledCode("Tests/ToltDocsTests/ErrorHandlingSnippet.swift")
        Self.expectSame(Self.docsCode(errors), handling, "GettingStarted.md, Handle errors")

        // Every block of the article that calls the SDK is one of those: a new one cannot go unchecked.
        let calling = Self.swiftBlocks(article[...]).filter { $0.contains("Tolt.") }
        #expect(calling.count == blocks.filter { $0.contains("Tolt.") }.count + errors.count)
    }

    /// The landing page prints the snippet's beginning: configure and a typed code.
    @Test func theLandingPageIsTheSnippetsBeginning() throws {
        let landing = try Self.file("Sources/Tolt/Tolt.docc/Tolt.md")
        let blocks = Self.swiftBlocks(landing[...])
        #expect(blocks.count == 1)
        let code = Self.docsCode(blocks)
        let snippet = try Self.compiledCode("Tests/ToltDocsTests/ProductDocsSnippet.swift")
        #expect(code.count > 40 && snippet.hasPrefix(code), "Tolt.md's block is not the snippet's beginning:\n\(code)")
    }

    // MARK: - Reading the docs and the snippet files

    /// A file of the repository.
    static func file(_ relative: String) throws -> String {
        let root = try #require(TestFiles.repositoryRoot, "no Package.swift above \(#filePath)")
        return try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// From the line `heading` to the next heading of its level or above, outside code blocks.
    static func section(_ heading: String, of markdown: String) throws -> Substring {
        let level = heading.prefix { $0 == "#" }.count
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix(heading) }, "no heading \(heading)")
        var end = lines.endIndex
        var inFence = false
        for index in lines.indices[(start + 1)...] {
            let line = lines[index]
            if line.hasPrefix("```") { inFence.toggle() }
            let hashes = line.prefix { $0 == "#" }.count
            if !inFence, hashes > 0, hashes <= level, line.dropFirst(hashes).hasPrefix(" ") {
                end = index
                break
            }
        }
        return lines[start..<end].joined(separator: "\n")[...]
    }

    /// The code of each ```` ```swift ```` block in `markdown`.
    static func swiftBlocks(_ markdown: Substring) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if let lines = current {
                if line.hasPrefix("```") {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else {
                    current = lines + [line]
                }
            } else if line.hasPrefix("```swift") {
                current = []
            }
        }
        return blocks
    }

    /// Blocks' code as compared: comment lines dropped, whitespace removed.
    static func docsCode(_ blocks: [String]) -> String {
        blocks.map { squeezed($0, droppingStandIns: false) }.joined()
    }

    /// A snippet file's code as compared: comment lines and lines marked `// stand-in` dropped, whitespace removed.
    static func compiledCode(_ relative: String) throws -> String {
        squeezed(try file(relative), droppingStandIns: true)
    }

    private static func squeezed(_ code: String, droppingStandIns: Bool) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in
                let text = line.trimmingCharacters(in: .whitespaces)
                return !text.hasPrefix("//") && !(droppingStandIns && text.hasSuffix("// stand-in"))
            }
            .joined()
            .filter { !$0.isWhitespace }
    }

    /// Records where `docs` and `compiled` first differ.
    static func expectSame(_ docs: String, _ compiled: String, _ source: String) {
        guard docs != compiled else { return }
        let common = zip(docs, compiled).prefix { $0 == $1 }.count
        Issue.record(
            """
            \(source) and the compiled snippet differ after \(common) characters (whitespace removed):
              docs:     …\(docs.dropFirst(max(0, common - 30)).prefix(80))
              compiled: …\(compiled.dropFirst(max(0, common - 30)).prefix(80))
            """)
    }
}
