import LinkCore
import Testing

@testable import EdgeServer

/// `PageTemplate` rendered with no sockets: fields escaped, sections shown or skipped, nothing after them lost.
@Suite struct PageTemplateTests {
    static let source =
        "<p>{{code}}</p>{{#app_store_url}}[{{app_store_url}}]{{/app_store_url}}"
        + "{{#google_play_url}}({{google_play_url}}){{/google_play_url}}<script>end</script>"

    @Test func bothSectionsShown() throws {
        let page = try render(Self.source, [.code: "LEE", .appStoreURL: "a", .googlePlayURL: "g"])
        #expect(page == "<p>LEE</p>[a](g)<script>end</script>")
    }

    /// Regression: a skipped section also skipped the literal after it, so a program without a Play URL got a
    /// fallback page cut off before its copy script.
    @Test func skippedSectionKeepsWhatFollows() throws {
        #expect(try render(Self.source, [.code: "LEE", .appStoreURL: "a"]) == "<p>LEE</p>[a]<script>end</script>")
        #expect(try render(Self.source, [.code: "LEE", .googlePlayURL: "g"]) == "<p>LEE</p>(g)<script>end</script>")
        #expect(try render(Self.source, [.code: "LEE"]) == "<p>LEE</p><script>end</script>")
    }

    @Test func emptySectionsAndSectionsAtTheEnds() throws {
        #expect(try render("{{#code}}{{/code}}x", [:]) == "x")
        #expect(try render("{{#code}}{{/code}}x", [.code: "c"]) == "x")
        #expect(try render("{{#code}}<{{code}}>{{/code}}", [:]) == "")
        #expect(try render("a{{#code}}<{{code}}>{{/code}}", [.code: "c"]) == "a<c>")
    }

    /// `{{^field}}…{{/field}}` shows its content only when the field has no value: the preview's `twitter:card`
    /// and default description.
    @Test func invertedSectionsShowWhatHasNoValue() throws {
        let source = "<{{#og_image_url}}large{{/og_image_url}}{{^og_image_url}}small{{/og_image_url}}>"
        #expect(try render(source, [.ogImageURL: "https://x"]) == "<large>")
        #expect(try render(source, [:]) == "<small>")
        #expect(try render("{{^code}}none{{/code}}|{{code}}", [.code: "c"]) == "|c")
        #expect(throws: TemplateError.self) { try PageTemplate("{{^code}}{{/partner_name}}") }
    }

    @Test func valuesAreEscaped() throws {
        #expect(
            try render("<b>{{code}}</b>", [.code: #"<b>"x"&'y'"#]) == "<b>&lt;b&gt;&quot;x&quot;&amp;&#39;y&#39;</b>")
    }

    @Test func malformedTemplatesAreRejected() {
        #expect(throws: TemplateError.self) { try PageTemplate("{{#code}}open") }
        #expect(throws: TemplateError.self) { try PageTemplate("{{#code}}{{/partner_name}}") }
        #expect(throws: TemplateError.self) { try PageTemplate("{{nonsense}}") }
    }

    /// The QR code's SVG is markup the server drew: written as is, and sized without the escaping allowance; the
    /// values beside it are escaped as ever (its label and caption are the page's words: `PageSourcesTests`).
    @Test func theQRCodeIsMarkupItsNeighboursAreText() throws {
        let source = #"{{#qr_svg}}<div aria-label="{{code}}">{{qr_svg}}</div><p>{{partner_name}}</p>{{/qr_svg}}"#
        let svg = #"<svg viewBox="0 0 37 37"><path d="M4 4.5h7"/></svg>"#
        let page = try render(source, [.qrSVG: svg, .code: #"QR "code""#, .partnerName: "Scan <here>"])
        #expect(page == #"<div aria-label="QR &quot;code&quot;">\#(svg)</div><p>Scan &lt;here&gt;</p>"#)
        #expect(try render(source, [.code: "QR", .partnerName: "Scan"]) == "", "no QR code, nothing of its block")
        #expect(PageField(name: "qr_svg")?.isMarkup == true)
        #expect(PageField.allCases.filter(\.isMarkup) == [.qrSVG], "every other field is escaped")
        let template = try PageTemplate("{{qr_svg}}")
        #expect(template.maximumLength { $0 == .qrSVG ? 100 : 0 } == "{{qr_svg}}".utf8.count + 100)
    }

    /// `{{field|bidi}}` (a `<title>`'s or an attribute's value) is put between U+2068 and U+2069 when it holds a
    /// right-to-left letter, escaped as ever; any other value is written as `{{field}}` is, and the page is sized for
    /// the isolates.
    @Test func anIsolatedFieldGetsUnicodeIsolatesOnlyWhenItHoldsARightToLeftLetter() throws {
        let source = "<title>{{app_name|bidi}}: {{code|bidi}}</title>"
        #expect(try render(source, [.appName: "Acme <1>", .code: "SAM20"]) == "<title>Acme &lt;1&gt;: SAM20</title>")
        #expect(
            try render(source, [.appName: "متجر <1>", .code: "SAM20"])
                == "<title>\u{2068}متجر &lt;1&gt;\u{2069}: SAM20</title>")
        #expect(
            try render(source, [.appName: "Café", .code: "A\u{5D0}"]) == "<title>Café: \u{2068}A\u{5D0}\u{2069}</title>"
        )
        for rightToLeft in ["\u{5D0}", "\u{627}", "\u{7C0}", "\u{FB1D}", "\u{FEFC}", "\u{10900}", "\u{1E900}"] {
            #expect(try render("{{code|bidi}}", [.code: rightToLeft]) == "\u{2068}\(rightToLeft)\u{2069}")
        }
        for leftToRight in ["\u{58F}", "\u{900}", "\u{FB1C}", "\u{FEFF}", "東京", "Ж", ""] {
            #expect(try render("{{code|bidi}}", [.code: leftToRight]) == leftToRight)
        }
        let template = try PageTemplate(source)
        #expect(template.maximumLength { _ in 0 } == source.utf8.count + 12, "the two isolates of each value")
        #expect(throws: TemplateError.self) { try PageTemplate("{{code|other}}") }
    }

    /// Renders `source` with `values`; a field missing from `values` has no value.
    private func render(_ source: String, _ values: [PageField: String]) throws -> String {
        let template = try PageTemplate(source)
        let capacity = template.maximumLength { values[$0]?.utf8.count ?? 0 }
        return withUnsafeTemporaryAllocation(byteCount: max(capacity, 1), alignment: 1) { buffer in
            var writer = ByteWriter(base: buffer.baseAddress!, capacity: capacity)
            template.render(into: &writer) { field, escaping in
                guard let value = values[field] else { return false }
                if field.isMarkup {
                    Array(value.utf8).withUnsafeBytes { escaping.writeMarkup($0) }
                } else {
                    escaping.write(value.utf8)
                }
                return true
            }
            #expect(!writer.overflowed)
            return String(
                decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: writer.count), as: UTF8.self)
        }
    }
}
