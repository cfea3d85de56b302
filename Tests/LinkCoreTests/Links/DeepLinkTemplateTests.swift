import Testing

@testable import LinkCore

@Suite struct DeepLinkTemplateTests {
    @Test(arguments: [
        "myapp://claim?c={code}", "https://example.com/x?c={code}&k={click_id}", "my.app+x-y://{code}",
    ])
    func acceptsURLsWithASchemeAndPlaceholders(_ text: String) throws {
        _ = try DeepLinkTemplate(text)
    }

    @Test(arguments: [
        "", "no-scheme/{code}", "://x", "1app://x", "myapp://a b", "myapp://a\r\nLocation: https://evil",
        "myapp://\u{7F}", String(repeating: "a", count: 2050),
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(throws: ConfigValidationError.self) { try DeepLinkTemplate(text) }
    }

    @Test func hostileCodesCannotEscapeTheirParameter() throws {
        let template = try DeepLinkTemplate("https://app.example/claim?code={code}&click={click_id}")
        let code = "x@evil.com/&a=b#\r\n<\"'>"
        let chunks = template.chunks(encodedCode: PercentEncoding.encode(code.utf8))
        let joined = String(decoding: chunks[0], as: UTF8.self)
        #expect(joined == "https://app.example/claim?code=x%40evil.com%2F%26a%3Db%23%0D%0A%3C%22%27%3E&click=")
        #expect(!chunks.joined().contains(0x0D) && !chunks.joined().contains(0x0A))
    }

    @Test func placeholdersMayRepeatOrBeAbsent() throws {
        let none = try DeepLinkTemplate("myapp://open").chunks(encodedCode: Array("C".utf8))
        #expect(none == [Array("myapp://open".utf8)])
        let twice = try DeepLinkTemplate("myapp://{click_id}/{click_id}").chunks(encodedCode: [])
        #expect(twice.count == 3)
    }

    @Test func webURLRules() throws {
        try URLRules.validateWebURL("https://apps.apple.com/app/id1")
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("javascript:alert(1)") }
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("https://a.b/\"onmouseover=x") }
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("https://") }
    }
}
