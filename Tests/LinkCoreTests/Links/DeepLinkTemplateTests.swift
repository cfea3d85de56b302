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

    /// A `Location: javascript:…` runs script in some clients; `data:` and `vbscript:` carry a page; `file:` reads
    /// the tapper's disk. Refused however a browser would still read the scheme.
    @Test(arguments: [
        "javascript:alert(document.cookie)//{click_id}", "JavaScript:alert(1)", "JAVASCRIPT:alert(1)",
        " javascript:alert(1)", "\u{1}javascript:alert(1)", "\u{0}\u{1F} javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "jav\r\nascript:alert(1)", "data:text/html,<script>alert(1)</script>{code}",
        "DATA:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox(1)", "VBScript:msgbox(1)", "file:///etc/passwd",
        "FILE://server/share/{code}", "\tfile:///etc/passwd",
    ])
    func refusesSchemesThatRunOrReadLocally(_ text: String) throws {
        let error = try #require(throws: ConfigValidationError.self) { try DeepLinkTemplate(text) }
        #expect(error.reason.contains("javascript, data, vbscript and file URLs are refused"), "\(error.reason)")
    }

    /// An `http(s)` template is a web URL once filled: a host, and no user name that would hide the real one.
    @Test func webTemplatesFollowTheWebURLRules() throws {
        _ = try DeepLinkTemplate("https://app.example.com/open/{code}?c={code}&k={click_id}#{code}")
        _ = try DeepLinkTemplate("HTTP://app.example.com:8080/{code}")
        for invalid in [
            "https://apps.apple.com@evil.example/{code}", "https:///{code}", "https:{code}", "http://{code}@x.example/",
            "https://x.example\\@evil.example/{code}",
        ] {
            #expect(throws: ConfigValidationError.self, "\(invalid)") { try DeepLinkTemplate(invalid) }
        }
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

    /// Only `{code}` and `{click_id}` are filled in: a misspelt placeholder would be sent as it is in every redirect,
    /// so a template being written (import, dashboard) that has another `{…}`, or a lone brace, is refused with the
    /// placeholder named.
    @Test(arguments: [
        ("myapp://x?{nope}", "{nope}"), ("myapp://x?c={code}&k={clickid}", "{clickid}"),
        ("myapp://x?c={Code}", "{Code}"), ("https://app.example/{CLICK_ID}", "{CLICK_ID}"),
        ("myapp://x?c={code}&k={}", "{}"), ("myapp://x?c={%20code%20}", "{%20code%20}"),
    ])
    func unknownPlaceholdersAreRefusedByName(_ text: String, _ placeholder: String) throws {
        let error = try #require(throws: ConfigValidationError.self) {
            try DeepLinkTemplate(text).validateLiteralText()
        }
        #expect(
            error.reason == "has an unknown placeholder \(placeholder): only {code} and {click_id} are filled in",
            "\(error.reason)")
    }

    @Test(arguments: ["myapp://x?c={code", "myapp://x?c=code}", "myapp://x?c={{code}}", "myapp://x?c={code}}"])
    func loneBracesAreRefused(_ text: String) throws {
        let error = try #require(throws: ConfigValidationError.self) {
            try DeepLinkTemplate(text).validateLiteralText()
        }
        #expect(error.reason.contains("only {code} and {click_id} are filled in"), "\(error.reason)")
        #expect(error.reason.contains("%7B") && error.reason.contains("%7D"), "\(error.reason)")
    }

    /// The check is for writing; a stored template with another `{…}` still parses, so the link path serves it as it
    /// was (the braces sent as they are).
    @Test func knownPlaceholdersPassAndAStoredUnknownOneIsStillServed() throws {
        for text in ["myapp://claim?c={code}&k={click_id}", "myapp://open", "myapp://{click_id}{code}{code}"] {
            try DeepLinkTemplate(text).validateLiteralText()
        }
        // A placeholder written with spaces never gets that far: no template holds a space.
        #expect(throws: ConfigValidationError.self) { try DeepLinkTemplate("myapp://x?c={ code }") }
        let stored = try DeepLinkTemplate("myapp://x?c={code}&k={clickid}")
        #expect(stored.chunks(encodedCode: Array("S".utf8)) == [Array("myapp://x?c=S&k={clickid}".utf8)])
    }

    /// The template's own text above ASCII is percent-encoded when it is parsed (the link table is built), as a
    /// browser's URL parser would encode it, so a `Location` holds ASCII only; the filled-in code was encoded already.
    @Test func literalTextAboveASCIIIsPercentEncoded() throws {
        let custom = try DeepLinkTemplate("myapp://ü/{code}?c={click_id}#é")
        #expect(
            custom.chunks(encodedCode: PercentEncoding.encode("É".utf8)) == [
                Array("myapp://%C3%BC/%C3%89?c=".utf8), Array("#%C3%A9".utf8),
            ])
        let web = try DeepLinkTemplate("https://app.example.com/é/{code}?n=😀")
        #expect(web.isWebAddress)
        let joined = Array(web.chunks(encodedCode: Array("SAM20".utf8)).joined())
        #expect(String(decoding: joined, as: UTF8.self) == "https://app.example.com/%C3%A9/SAM20?n=%F0%9F%98%80")
        #expect(joined.allSatisfy { $0 < 0x80 })
        // Escapes already written, and ASCII, are left as they are.
        let written = try DeepLinkTemplate("myapp://%C3%BC/{code}?a=b&c=%7Bx%7D")
        #expect(written.chunks(encodedCode: []) == [Array("myapp://%C3%BC/?a=b&c=%7Bx%7D".utf8)])
        try written.validateLiteralText()
        try custom.validateLiteralText()
    }

    /// A `%` that two hex digits do not follow is refused when a template is written, naming it; one stored before
    /// the rule still parses and is sent as it is.
    @Test(arguments: [
        ("https://good.example/{code}%", "%"), ("https://good.example/%zz{code}", "%zz"),
        ("myapp://x?c=%{code}", "%{c"), ("myapp://x?c=%4", "%4"), ("myapp://x?a=%41&b=%g1", "%g1"),
        ("myapp://x/%é", "%é"), ("myapp://x?p=100%&c={code}", "%&c"),
    ])
    func malformedEscapesAreRefusedOnWriteAndServedWhenStored(_ text: String, _ escape: String) throws {
        let template = try DeepLinkTemplate(text)
        let error = try #require(throws: ConfigValidationError.self) { try template.validateLiteralText() }
        #expect(
            error.reason
                == "has a % that starts no escape (\(escape)): a % must be followed by two hex digits"
                + " (write a percent sign as %25)", "\(error.reason)")
        let sent = Array(template.chunks(encodedCode: Array("C".utf8)).joined(separator: Array("clk".utf8)))
        #expect(
            String(decoding: sent, as: UTF8.self)
                == text.replacing("{code}", with: "C")
                .replacing("{click_id}", with: "clk").replacing("é", with: "%C3%A9"))
    }

    @Test func webURLRules() throws {
        try URLRules.validateWebURL("https://apps.apple.com/app/id1")
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("javascript:alert(1)") }
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("https://a.b/\"onmouseover=x") }
        #expect(throws: ConfigValidationError.self) { try URLRules.validateWebURL("https://") }
    }
}
