import Testing

@testable import LinkCore

/// What a valid template is warned about (``DeepLinkTemplate/advice``): a scheme only the app opens, and a query
/// without a parameter the Tolt SDK's `claim(url:)` reads.
@Suite struct DeepLinkTemplateAdviceTests {
    /// `Tolt.claim(url:)` reads `tolt_click` or `tolt_code` from the query, the whole value: the template must fill
    /// one of them with its placeholder, in the query (not the path or the fragment).
    @Test(arguments: [
        ("myapp://claim?tolt_code={code}&tolt_click={click_id}", true),
        ("https://acme.example/i?tolt_click={click_id}", true),
        ("https://acme.example/i/{code}?tolt_code={code}", true),
        ("myapp://x?a=1&tolt%5Fcode={code}#f", true), ("myapp://claim?code={code}&click={click_id}", false),
        ("https://fitly.app/invite/{code}?click={click_id}", false), ("myapp://claim/tolt_code={code}", false),
        ("myapp://claim?tolt_code=x{code}", false), ("myapp://claim?tolt_code={click_id}", false),
        ("myapp://claim#?tolt_code={code}", false), ("myapp://claim?x=1#&tolt_click={click_id}", false),
        ("myapp://claim?tolt_code=SAM20", false),
    ])
    func aClaimParameterIsOneTheSDKReads(_ text: String, _ readable: Bool) throws {
        #expect(try DeepLinkTemplate(text).hasClaimParameter == readable)
    }

    @Test func aSchemeOnlyTheAppOpensIsWarnedAboutAndAWebAddressIsNot() throws {
        let scheme = try DeepLinkTemplate("myapp://claim?tolt_code={code}&tolt_click={click_id}").advice
        #expect(scheme.count == 1)
        #expect(scheme.first?.hasPrefix("is a scheme only the app opens: every phone is sent to it") == true)
        #expect(scheme.first?.contains("https:// universal link or App Link") == true)
        #expect(try DeepLinkTemplate("https://acme.example/c?tolt_code={code}&tolt_click={click_id}").advice.isEmpty)
        #expect(try DeepLinkTemplate("HTTP://acme.example/c?tolt_click={click_id}").advice.isEmpty)

        let both = try DeepLinkTemplate("myapp://claim?code={code}&click={click_id}").advice
        #expect(both.count == 2)
        #expect(both.last?.hasPrefix("has no tolt_code={code} or tolt_click={click_id} in its query") == true)
    }
}
