import EdgeServer
import TestSupport
import Testing

/// The pages speak the language `Accept-Language` prefers, through a real server: `<html lang>`, the words, the
/// copy button's strings, and `Accept-Language` in `Vary`; English when the header is absent, unmet or malformed.
@Suite struct LinkLanguageTests {
    /// A few words of each language's fallback page, as a person reads them.
    static let fallbackWords: [String: [String]] = [
        "en": [
            "<bdi>Lee</bdi> shared this code with you.", ">Copy code</button>", #"data-copied-status="Copied LEE""#,
        ],
        "de": [
            "<bdi>Lee</bdi> hat diesen Code mit dir geteilt.", ">Code kopieren</button>",
            #"data-copied-status="LEE kopiert""#,
        ],
        "fr": [
            "<bdi>Lee</bdi> a partagé ce code avec vous.", ">Copier le code</button>",
            #"data-copied-status="LEE copié""#,
        ],
        "es": [
            "<bdi>Lee</bdi> ha compartido este código contigo.", ">Copiar código</button>", #"data-copied="Copiado""#,
        ],
        "pt": [
            "<bdi>Lee</bdi> compartilhou este código com você.", ">Copiar código</button>", #"data-copied="Copiado""#,
        ],
    ]

    static func fallback(_ client: HTTPClient, acceptLanguage: String?) throws -> HTTPResponse {
        var headers = [("User-Agent", Agents.desktop)]
        if let acceptLanguage { headers.append(("Accept-Language", acceptLanguage)) }
        return try client.request("GET", "/a/pk_acme/LEE", headers: headers)
    }

    /// The language a page says it is in.
    static func language(of response: HTTPResponse) -> String? {
        guard let start = response.text.range(of: #"<html lang=""#)?.upperBound,
            let end = response.text[start...].firstIndex(of: "\"")
        else { return nil }
        return String(response.text[start..<end])
    }

    @Test func eachLanguageHasItsWords() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for (language, words) in Self.fallbackWords {
            let response = try Self.fallback(client, acceptLanguage: language)
            #expect(response.status == 200)
            #expect(Self.language(of: response) == language)
            #expect(response.header("vary") == "Accept-Language, User-Agent")
            for word in words { #expect(response.text.contains(word), "\(language): \(word)") }
        }
        // The badges' words too, around the brand names.
        let german = try Self.fallback(client, acceptLanguage: "de").text
        #expect(german.contains("<small>Laden im</small><strong>App Store</strong>"))
        #expect(german.contains("<small>Jetzt bei</small><strong>Google Play</strong>"))
    }

    /// The desktop page's QR code is labelled and captioned in the page's language.
    @Test func theQRCodeSpeaksThePageLanguage() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        let client = server.client()
        for (language, label, caption) in [
            ("de", "QR-Code dieses Links", "Mit dem Handy scannen"),
            ("en", "QR code of this link", "Scan with your phone"),
            ("pt-BR", "Código QR deste link", "Escaneie com seu celular"),
        ] {
            let page = try Self.fallback(client, acceptLanguage: language).text
            #expect(page.contains(#"<div role="img" aria-label="\#(label)"><svg"#), "\(language)")
            #expect(page.contains("</svg></div><p>\(caption)</p>"), "\(language)")
        }
    }

    /// The headers of `AcceptLanguageTests` that a browser or a client could send, end to end.
    @Test func theHeaderChoosesTheLanguage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let cases: [(String?, String)] = [
            (nil, "en"),
            ("de-CH", "de"),
            ("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7", "pt"),
            ("fr;q=0.4, es;q=0.9", "es"),
            ("ja, fr;q=0.2", "fr"),
            ("en;q=0, pt;q=0.1", "pt"),
            ("en;q=0, *;q=0.5", "de"),
            ("*", "en"),
            ("de;q=0", "en"),
            ("de;q=abc", "en"),
            ("de;q=2", "en"),
            ("%%% garbage ;;; ===", "en"),
            ("ja", "en"),
        ]
        for (header, expected) in cases {
            let response = try Self.fallback(client, acceptLanguage: header)
            #expect(response.status == 200, "\(header ?? "none")")
            #expect(Self.language(of: response) == expected, "\(header ?? "none")")
        }
    }

    /// A header of 16 KB: the ranges within the first KB count, the rest is not read; the server answers as usual.
    @Test func aVeryLongHeaderIsReadOnlyUpToItsLimit() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let filler = String(repeating: "ja-JP;q=0.1, ", count: 1_300)
        #expect(Self.language(of: try Self.fallback(client, acceptLanguage: "fr, " + filler)) == "fr")
        #expect(Self.language(of: try Self.fallback(client, acceptLanguage: filler + "fr")) == "en")
        let response = try Self.fallback(client, acceptLanguage: String(repeating: "x", count: 16_000))
        #expect(response.status == 200 && Self.language(of: response) == "en")
    }

    @Test func thePreviewAndTheNotFoundPageSpeakTheLanguageToo() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let preview = try client.request(
            "GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.slack), ("Accept-Language", "es-MX")])
        #expect(Self.language(of: preview) == "es")
        #expect(preview.header("vary") == "Accept-Language, User-Agent")
        #expect(
            preview.text.contains(
                #"<meta property="og:description" content="Lee te invita a Acme Lite. Usa el código LEE al registrarte.">"#
            ))
        #expect(preview.text.contains(#"<meta property="og:locale" content="es_ES">"#))

        let missing = try client.request("GET", "/a/pk_acme/NOPE", headers: [("Accept-Language", "de")])
        #expect(missing.status == 404)
        #expect(Self.language(of: missing) == "de")
        #expect(missing.text.contains("<h1>Dieser Link ist nicht aktiv</h1>"))
        #expect(missing.header("vary") == "Accept-Language")
        let malformed = try client.request("GET", "/a/pk_acme/", headers: [("Accept-Language", "fr")])
        #expect(malformed.status == 404 && Self.language(of: malformed) == "fr")
    }

    /// Redirects carry no words, so they neither read the header nor vary by it (they vary by the User-Agent alone).
    @Test func redirectsDoNotVaryByLanguage() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try server.client().request(
            "GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone), ("Accept-Language", "de")])
        #expect(response.status == 302)
        #expect(response.header("vary") == "User-Agent")
    }
}
