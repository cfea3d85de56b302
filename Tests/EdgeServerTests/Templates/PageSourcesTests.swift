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

    @Test func templatesCompile() throws {
        _ = try PageTemplate(PageSources.fallback)
        _ = try PageTemplate(PageSources.preview)
    }
}
