import Testing

@testable import LinkCore

/// The rules every configured URL follows before it can reach a browser as a `Location` or an `href`.
@Suite struct URLRulesTests {
    /// Characters that are invisible, or that end a line for some reader, in a URL: each refused anywhere.
    static let invisible: [(name: String, scalar: Unicode.Scalar)] = [
        ("NEL, a C1 control", "\u{85}"), ("C1 control U+0080", "\u{80}"), ("NBSP", "\u{A0}"),
        ("line separator", "\u{2028}"), ("paragraph separator", "\u{2029}"), ("byte-order mark", "\u{FEFF}"),
        ("zero-width space", "\u{200B}"), ("right-to-left override", "\u{202E}"), ("ideographic space", "\u{3000}"),
        ("ogham space", "\u{1680}"), ("narrow NBSP", "\u{202F}"), ("soft hyphen", "\u{AD}"), ("DEL", "\u{7F}"),
        ("tab", "\t"), ("space", " "),
    ]

    @Test func invisibleAndLineBreakingCharactersAreRefusedAnywhereInAURL() {
        for (name, scalar) in Self.invisible {
            let character = String(Character(scalar))
            for url in [
                "https://apps.apple.com/app/id1\(character)", "https://apps.apple.com/\(character)app",
                "https://apps.apple.com/app?q=\(character)", "https://apps.apple.com/#\(character)",
                "https://apps.apple\(character).com/",
            ] {
                #expect(throws: ConfigValidationError.self, "\(name) in \(url.debugDescription)") {
                    try URLRules.validateWebURL(url)
                }
            }
            for template in [
                "myapp://claim?c={code}\(character)", "myapp://\(character)claim",
                "https://app.example/\(character){code}",
            ] {
                #expect(throws: ConfigValidationError.self, "\(name) in \(template.debugDescription)") {
                    try DeepLinkTemplate(template)
                }
            }
        }
        // Letters from other scripts are not invisible: a template may hold them (it is sent percent-encoded), and
        // so may a URL stored before the ASCII rule.
        #expect(throws: Never.self) {
            try URLRules.validateWebURL("https://apps.apple.com/fr/app/café-crème/id1", asStored: true)
        }
        #expect(throws: Never.self) { try DeepLinkTemplate("myapp://ouvrir/été?c={code}") }
    }

    /// Before: a store URL could hold text above ASCII, and a `%` that starts no escape, which the Android redirect
    /// sent as they were in its `Location` (RFC 9110 §5.5: ASCII only). Now a URL written is ASCII, with every `%`
    /// followed by two hex digits; one stored before (``URLRules/validateWebURL(_:asStored:)``) is still taken.
    @Test func aWrittenURLIsASCIIWithWellFormedEscapes() throws {
        for (url, reason) in [
            ("https://apps.apple.com/fr/app/café-crème/id1", "must hold only ASCII characters"),
            ("https://play.google.com/store?id=a&hl=\u{1F600}", "(found U+1F600"),
            ("https://play.google.com/store?id=a%zz", "has a % that starts no escape (%zz)"),
            ("https://play.google.com/store?id=a%", "has a % that starts no escape (%)"),
            ("https://play.google.com/store?id=a%4", "has a % that starts no escape (%4)"),
            ("https://play.google.com/store?id=%4g", "has a % that starts no escape (%4g)"),
            ("https://play.google.com/store?id=a\u{1}", "must not contain spaces, control characters"),
            ("https://play.google.com/store?id=a\u{7F}", "must not contain spaces, control characters"),
        ] {
            let error = try #require(throws: ConfigValidationError.self, "\(url.debugDescription)") {
                try URLRules.validateWebURL(url)
            }
            #expect(error.reason.contains(reason), "\(url.debugDescription): \(error.reason)")
            #expect(throws: ConfigValidationError.self) { try URLRules.validatePageURL(url) }
            if !reason.hasPrefix("must not contain") {
                #expect(throws: Never.self, "\(url.debugDescription)") {
                    try URLRules.validatePageURL(url, asStored: true)
                }
            }
        }
        for url in [
            "https://play.google.com/store?id=a%20b%C3%A9&x=%3d", "https://apps.apple.com/fr/app/caf%C3%A9/id1~",
        ] {
            #expect(throws: Never.self, "\(url)") { try URLRules.validateWebURL(url) }
        }
        // An image is held to the same rules.
        #expect(throws: ConfigValidationError.self) { try BrandingRules.validateImageURL("https://cdn.example/é.png") }
        #expect(throws: Never.self) {
            try BrandingRules.validateImageURL("https://cdn.example/é.png", asStored: true)
        }
    }

    @Test func theErrorNamesTheCharacter() throws {
        let error = try #require(throws: ConfigValidationError.self) {
            try URLRules.validateWebURL("https://apps.apple.com/app\u{2028}id1")
        }
        #expect(error.reason.contains("U+2028"), "\(error.reason)")
        let bom = try #require(throws: ConfigValidationError.self) { try DeepLinkTemplate("\u{FEFF}myapp://x") }
        #expect(bom.reason.contains("U+FEFF"), "\(bom.reason)")
    }

    /// `https://x` was accepted and `http://x` refused (a length check counted `https://`): one rule for both now.
    /// A URL a page shows is bounded by what it takes there: each `&` and `'` is escaped to 5 bytes.
    @Test func aPageURLIsMeasuredAsThePageWritesIt() throws {
        let head = "https://play.google.com/store?"
        let fits = head + String(repeating: "&", count: (URLRules.maximumLength - head.utf8.count) / 5)
        #expect(throws: Never.self) { try URLRules.validatePageURL(fits) }
        let over = fits + "&"
        #expect(throws: Never.self, "a web URL all the same") { try URLRules.validateWebURL(over) }
        let error = try #require(throws: ConfigValidationError.self) { try URLRules.validatePageURL(over) }
        #expect(error.reason.contains("at most 2048 bytes on a page"), "\(error.reason)")
        let plain = "https://x.example/" + String(repeating: "a", count: URLRules.maximumLength - 18)
        #expect(throws: Never.self, "plain bytes count once") { try URLRules.validatePageURL(plain) }
        #expect(throws: ConfigValidationError.self) {
            try URLRules.validatePageURL("https://x/'", maximumPageLength: 12)
        }
    }

    @Test func httpAndHttpsAreTreatedAlike() {
        for scheme in ["http", "https", "HTTP", "Https"] {
            for valid in [
                "\(scheme)://x", "\(scheme)://apps.apple.com", "\(scheme)://apps.apple.com/app/id1?x=1#y",
                "\(scheme)://play.google.com:443/store", "\(scheme)://[2001:db8::1]:8443/x", "\(scheme)://10.0.0.1/",
                "\(scheme)://xn--caf-dma.example/", "\(scheme)://a-b.example?x", "\(scheme)://a.example#top",
            ] {
                #expect(throws: Never.self, "\(valid)") { try URLRules.validateWebURL(valid) }
            }
            for invalid in [
                "\(scheme)://", "\(scheme):///app", "\(scheme)://?x", "\(scheme):apps.apple.com",
                "\(scheme):/x.example",
                "\(scheme)://apps.apple.com@evil.example/", "\(scheme)://user:pass@apps.apple.com/",
                "\(scheme)://apps.apple.com\\@evil.example", "\(scheme)://:443/", "\(scheme)://x.example:0/",
                "\(scheme)://x.example:65536/", "\(scheme)://x.example:/", "\(scheme)://x.example:8o/",
                "\(scheme)://a..example/", "\(scheme)://.example/", "\(scheme)://-a.example/",
                "\(scheme)://a_b.example",
                "\(scheme)://café.example/", "\(scheme)://[2001:db8::1/", "\(scheme)://[]/", "\(scheme)://[::1]x/",
                "\(scheme)://x.example/\"onclick=\"", "\(scheme)://x.example/<b>", "\(scheme)://x.example/`",
            ] {
                #expect(throws: ConfigValidationError.self, "\(invalid)") { try URLRules.validateWebURL(invalid) }
            }
        }
        for other in ["ftp://x.example/", "javascript://x.example/%0aalert(1)", "//x.example/", "x.example"] {
            #expect(throws: ConfigValidationError.self, "\(other)") { try URLRules.validateWebURL(other) }
        }
        #expect(throws: ConfigValidationError.self) {
            try URLRules.validateWebURL("https://x.example/" + String(repeating: "a", count: 2048))
        }
    }

    /// Browsers skip leading C0 controls and spaces and drop tabs and newlines before they read a scheme.
    @Test func theSchemeIsReadAsABrowserReadsIt() {
        let cases: [(String, String?)] = [
            ("javascript:alert(1)", "javascript"), ("JaVaScRiPt:alert(1)", "javascript"),
            ("  javascript:x", "javascript"), ("\u{1}\u{1F}javascript:x", "javascript"),
            ("java\tscript:x", "javascript"), ("java\r\nscript:x", "javascript"), ("\tDATA:text/html,x", "data"),
            ("my.app+x-y://c", "my.app+x-y"), ("https://x", "https"), ("1app://x", nil), ("://x", nil),
            ("no-scheme/x", nil), ("", nil), ("\u{A0}javascript:x", nil), ("ja va:x", nil),
        ]
        for (text, scheme) in cases {
            #expect(URLRules.browserScheme(Array(text.utf8)) == scheme, "\(text.debugDescription)")
        }
    }
}
