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
    /// words beside it are escaped like any value.
    @Test func theQRCodeIsMarkupItsWordsAreText() throws {
        let source = #"{{#qr_svg}}<div aria-label="{{qr_label}}">{{qr_svg}}</div><p>{{qr_caption}}</p>{{/qr_svg}}"#
        let svg = #"<svg viewBox="0 0 37 37"><path d="M4 4.5h7"/></svg>"#
        let page = try render(source, [.qrSVG: svg, .qrLabel: #"QR "code""#, .qrCaption: "Scan <here>"])
        #expect(page == #"<div aria-label="QR &quot;code&quot;">\#(svg)</div><p>Scan &lt;here&gt;</p>"#)
        #expect(try render(source, [.qrLabel: "QR", .qrCaption: "Scan"]) == "", "no QR code, no words")
        #expect(PageField(name: "qr_svg")?.isMarkup == true)
        #expect(PageField.allCases.filter(\.isMarkup) == [.qrSVG], "every other field is escaped")
        let template = try PageTemplate("{{qr_svg}}")
        #expect(template.maximumLength { $0 == .qrSVG ? 100 : 0 } == "{{qr_svg}}".utf8.count + 100)
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
