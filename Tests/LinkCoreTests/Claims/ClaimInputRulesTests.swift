import Testing

@testable import LinkCore

/// The input rules a claim meets before the claim rules: a JSON `Content-Type`, members named once, identifiers
/// neither blank nor holding control characters or line separators.
@Suite struct ClaimInputRulesTests {
    @Test(arguments: [
        "application/json", "APPLICATION/JSON", "application/json; charset=utf-8", "\tapplication/json \t; x=y",
        "application/json;",
    ])
    func jsonIsAccepted(contentType: String) throws {
        #expect(JSONContentType.matches(contentType))
        try ClaimRequest.checkContentType(contentType)
    }

    @Test(arguments: [
        "", "application/x-www-form-urlencoded", "text/plain", "text/json", "application/jsonp", "application/json+x",
        "application/ld+json", "application /json", "application/json\u{0}", "application/json, text/plain",
        ";application/json",
    ])
    func anythingElseIs415(contentType: String) {
        #expect(!JSONContentType.matches(contentType))
        #expect(throws: ClaimFailure.unsupportedMediaType) { try ClaimRequest.checkContentType(contentType) }
    }

    @Test func noContentTypeIs415() {
        #expect(throws: ClaimFailure.unsupportedMediaType) { try ClaimRequest.checkContentType(nil) }
        #expect(ClaimFailure.unsupportedMediaType.status == 415)
        #expect(ClaimFailure.unsupportedMediaType.code == "unsupported_media_type")
    }

    @Test(arguments: [
        #"{"public_id":"pk","public_id":"pk","app_user_id":"u","code":"C"}"#,
        #"{"public_id":"pk","app_user_id":"u","code":"C","first_seen_at":null,"first_seen_at":null}"#,
        #"{"public_id":"pk","app_user_id":"u","code":"C","\u0063ode":"D"}"#,
        #"{"public_id":"pk","app_user_id":"u","click_id":"clk_1","extra":{},"extra":[]}"#,
    ])
    func aMemberNamedTwiceIsRefused(body: String) {
        let failure = #expect(throws: ClaimFailure.self) { try ClaimRequest(body: Array(body.utf8)) }
        #expect(
            failure?.status == 400 && failure?.message.contains("more than once") == true,
            "\(String(describing: failure))")
    }

    /// Nested objects are not claims' business: only the body's own members must be unique.
    @Test func repeatedNamesInsideAnIgnoredMemberAreNotChecked() throws {
        let request = try ClaimRequest(
            body: Array(#"{"public_id":"pk","app_user_id":"u","code":"C","meta":{"a":1,"a":2}}"#.utf8))
        #expect(request.code == "C")
        // Names are compared by code point, as JSON does: a composed and a decomposed "é" are two names.
        let twoNames = try ClaimRequest(
            body: Array(#"{"public_id":"pk","app_user_id":"u","code":"C","\u00e9":1,"e\u0301":2}"#.utf8))
        #expect(twoNames.code == "C")
    }

    @Test(arguments: ["public_id", "app_user_id", "code", "click_id"])
    func blankOrControlIdentifiersAreRefused(field: String) {
        for value in [
            " ", "\t", "\u{A0}", "\u{2003}\u{3000}", "\u{FEFF}a\u{0}", "a\u{1}", "a\u{1F}", "a\u{7F}", "a\u{80}",
            "a\u{9F}",
            "a\u{2028}b", "a\u{2029}", "a\nb", "a\r",
            // Before: accepted though they show nothing (only spaces were refused).
            "\u{200B}", "\u{FEFF}", "\u{2060}\u{200B}", " \u{200D} ", "\u{3164}", "\u{2800}", "\u{FE0F}",
        ] where field != "code" || !["a\r", "a\u{2029}"].contains(value) {  // a code is trimmed (below)
            var fields = [("public_id", "pk"), ("app_user_id", "u"), ("code", "C"), ("click_id", "clk_1")]
            fields = fields.map { $0.0 == field ? ($0.0, value) : $0 }
            let body = "{" + fields.map { #""\#($0.0)":"\#(jsonEscaped($0.1))""# }.joined(separator: ",") + "}"
            let failure = #expect(throws: ClaimFailure.self) { try ClaimRequest(body: Array(body.utf8)) }
            #expect(
                failure?.status == 400 && failure?.message.hasPrefix(field) == true, "\(String(describing: failure))")
        }
    }

    /// A code is pasted or typed by a person: the whitespace around it (a space, a tab, the line break copied with
    /// it, a no-break space) is not part of it. A control character inside a code is still refused, and whitespace
    /// around any other identifier is kept or refused as before.
    @Test func aCodesSurroundingWhitespaceIsTrimmed() throws {
        for pasted in [" SAM20 ", "\tSAM20", "SAM20\r\n", "\u{A0}SAM20\u{3000}"] {
            let body = #"{"public_id":"pk","app_user_id":"u","code":"\#(jsonEscaped(pasted))"}"#
            #expect(try ClaimRequest(body: Array(body.utf8)).code == "SAM20", "\(pasted.debugDescription)")
        }
        for inside in ["SAM\n20", " SAM\u{0}20 "] {
            let body = #"{"public_id":"pk","app_user_id":"u","code":"\#(jsonEscaped(inside))"}"#
            #expect(throws: ClaimFailure.self, "\(inside.debugDescription)") {
                try ClaimRequest(body: Array(body.utf8))
            }
        }
        let user = #"{"public_id":"pk","app_user_id":"u\r","code":"C"}"#
        #expect(throws: ClaimFailure.self) { try ClaimRequest(body: Array(user.utf8)) }
    }

    /// A code copied from a bio, a chat or a web page brings invisible formatting characters along (no code holds
    /// one: the import refuses them); they are dropped around it like whitespace. The tag characters that end an
    /// emoji flag are part of the code, and a formatting character inside a code stays (it matches nothing).
    @Test func theInvisibleFormattingCharactersAroundACodeAreDropped() throws {
        func code(_ text: String) throws -> String? {
            let body = #"{"public_id":"pk","app_user_id":"u","code":"\#(jsonEscaped(text))"}"#
            return try ClaimRequest(body: Array(body.utf8)).code
        }
        for pasted in [
            "SAM20\u{200B}", "\u{FEFF}SAM20", "SAM20\u{2060}", "SAM20\u{200E}", "\u{202A}SAM20\u{202C}",
            " \u{200B}SAM20\u{00AD} ",
        ] {
            #expect(try code(pasted) == "SAM20", "\(pasted.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        let flag = "SAM\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(try code(flag + "\u{200B}") == flag)
        #expect(try code("SAM\u{200B}20") == "SAM\u{200B}20")
        #expect(throws: ClaimFailure.self) { try code("\u{200B}\u{FEFF}") }
    }

    /// Claims drop around a code exactly what links drop (``InvisibleCharacters``): every whitespace and formatting
    /// character, pasted before and after a code, is dropped by both or kept by both. The rare formatting characters
    /// links keep (the Arabic number sign U+0600, the interlinear annotation marks U+FFF9–U+FFFB) stay in a claim's
    /// code too, which then matches nothing, as its link does.
    @Test func claimsAndLinksDropTheSameCharactersAroundACode() throws {
        let around = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
            $0.properties.isWhitespace || $0.properties.generalCategory == .format
        }
        #expect(around.count > 150)
        for scalar in around where !(0xE0000...0xE007F).contains(scalar.value) {
            let pasted = String(scalar) + "SAM20" + String(scalar)
            let body = #"{"public_id":"pk","app_user_id":"u","code":"\#(jsonEscaped(pasted))"}"#
            let claimed = try? ClaimRequest(body: Array(body.utf8)).code
            let linked = Array(pasted.utf8).withUnsafeBytes { bytes in
                String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[InvisibleCharacters.trimmed(bytes)]), as: UTF8.self
                )
            }
            #expect(claimed == linked, "U+\(String(scalar.value, radix: 16))")
        }
        for kept in ["\u{0600}", "\u{FFF9}"] {
            let body = #"{"public_id":"pk","app_user_id":"u","code":"SAM20\#(kept)"}"#
            #expect(try ClaimRequest(body: Array(body.utf8)).code == "SAM20" + kept)
        }
    }

    @Test func ordinaryTextIsAnIdentifier() throws {
        let request = try ClaimRequest(
            body: Array(#"{"public_id":"pk_acme","app_user_id":" Zoë Ødegård 😀 ","code":"SAM20"}"#.utf8))
        #expect(request.appUserID == " Zoë Ødegård 😀 ")
    }

    /// `text` inside a JSON string: every scalar below U+0020 and above U+007E as `\uXXXX`.
    private func jsonEscaped(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            guard scalar.value < 0x20 || scalar.value > 0x7E || scalar == "\"" || scalar == "\\" else {
                return String(scalar)
            }
            if scalar.value > 0xFFFF { return String(scalar) }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }
}
