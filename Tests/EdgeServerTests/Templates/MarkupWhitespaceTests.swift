import Testing

@testable import EdgeServer

/// `MarkupWhitespace` with no sockets: the layout's line breaks go, what a browser reads stays (the served pages as
/// a browser sees them are the browser tests').
@Suite struct MarkupWhitespaceTests {
    @Test func breaksBetweenTagsGoAndOtherBreaksBecomeOneSpace() throws {
        let source =
            "<!doctype html>\n<main>\n  <h1 id=\"a\">Title</h1>\n  <p>One line\n     and the next</p>\n</main>\n"
        #expect(
            try MarkupWhitespace.compact(source)
                == "<!doctype html><main><h1 id=\"a\">Title</h1><p>One line and the next</p></main>")
        // A section's tags count as tags.
        #expect(
            try MarkupWhitespace.compact("<i></i>\n{{#code}}<b>{{code}}</b>{{/code}}\n{{^code}}-{{/code}}\n<i></i>")
                == "<i></i>{{#code}}<b>{{code}}</b>{{/code}}{{^code}}-{{/code}}<i></i>")
        // An attribute list that goes on, a value next to a tag, text next to a tag: one space each.
        #expect(try MarkupWhitespace.compact("<div a=\"1\"\n     b=\"2\"></div>") == "<div a=\"1\" b=\"2\"></div>")
        #expect(try MarkupWhitespace.compact("<i></i>\n{{code}}\n<i></i>") == "<i></i> {{code}} <i></i>")
        #expect(try MarkupWhitespace.compact("{{/code}}\n{{code}}\n{{#code}}") == "{{/code}} {{code}} {{#code}}")
        #expect(try MarkupWhitespace.compact("<p>\nText\n</p>") == "<p> Text </p>")
    }

    @Test func blankLinesTrailingSpacesAndTabsGoToo() throws {
        #expect(try MarkupWhitespace.compact("<a>  \n\n\t\n  <b>x</b>\t \n") == "<a><b>x</b>")
        #expect(try MarkupWhitespace.compact("\n\n  <a>") == "<a>")
        #expect(try MarkupWhitespace.compact("a \n \n b") == "a b")
        #expect(try MarkupWhitespace.compact("") == "")
        #expect(try MarkupWhitespace.compact("<a>\r\n  <b>x\r\ny</b>\r\n") == "<a><b>x y</b>", "CRLF line ends")
        // Spaces inside a line are kept.
        #expect(try MarkupWhitespace.compact("<p>a  b</p>") == "<p>a  b</p>")
    }

    /// In a style sheet or a script a break goes after `>` `;` `{` `}` `,` and before `}`; elsewhere it is one
    /// space, so two words never run together.
    @Test func stylesAndScriptsLoseTheirBreaksBetweenRulesAndStatements() throws {
        let style = "<style>\n:root{a:b;\n  c:d}\nh1,\nh2{e:f}\nb\ni{g:h\n}\n</style>\n<p>x</p>"
        #expect(try MarkupWhitespace.compact(style) == "<style>:root{a:b;c:d}h1,h2{e:f}b i{g:h}</style><p>x</p>")
        let script = "<script>\n{\nconst a=1,\nb=2;\nif(a)\nf();\nconst g=x=>\nx;\n}\n</script>\n<p>\ny\n</p>"
        #expect(
            try MarkupWhitespace.compact(script) == "<script>{const a=1,b=2;if(a) f();const g=x=>x;}</script><p> y </p>"
        )
        // After the script, markup rules again: text next to a tag keeps a space.
        #expect(try MarkupWhitespace.compact("<script>a;\n</script>\nb;\n{c}") == "<script>a;</script> b; {c}")
    }

    @Test func preAndTextareaAreRefusedOutsideScripts() throws {
        #expect(throws: TemplateError.self) { try MarkupWhitespace.compact("<pre>\n a\n</pre>") }
        #expect(throws: TemplateError.self) { try MarkupWhitespace.compact("<p></p>\n<textarea>\n</textarea>") }
        let script = "<script>\nconst field=document.createElement(\"<textarea>\");\n</script>"
        #expect(
            try MarkupWhitespace.compact(script)
                == "<script>const field=document.createElement(\"<textarea>\");</script>")
    }

    /// Whitespace that is content: a quoted attribute value is copied as it is (a line break in a `title` is a line
    /// break in its tooltip), and tag names are matched as HTML matches them, whatever their case.
    @Test func quotedAttributeValuesKeepTheirBreaksAndTagNamesIgnoreCase() throws {
        #expect(
            try MarkupWhitespace.compact("<p title=\"one\n  two\" data-a='x\ny'\n class=c>\n<i></i>")
                == "<p title=\"one\n  two\" data-a='x\ny' class=c><i></i>")
        // A `>` inside a value does not end the tag; an apostrophe in text starts no value.
        #expect(
            try MarkupWhitespace.compact("<a title=\"a>b\nc\">it's\n fine</a>") == "<a title=\"a>b\nc\">it's fine</a>")
        #expect(throws: TemplateError.self) { try MarkupWhitespace.compact("<PRE>\n a\n</PRE>") }
        #expect(throws: TemplateError.self) { try MarkupWhitespace.compact("<p></p>\n<TextArea>\n</TextArea>") }
        // Not <pre>: a longer name that starts alike.
        #expect(try MarkupWhitespace.compact("<prefix-box>\n<i></i>") == "<prefix-box><i></i>")
        #expect(
            try MarkupWhitespace.compact("<STYLE>\nh1,\nh2{a:b}\n</STYLE>\n<p>x</p>")
                == "<STYLE>h1,h2{a:b}</STYLE><p>x</p>")
    }

    /// Every page as served: no line break left, no indentation, and the same fields, sections and words in the
    /// same order as its file; compacting again changes nothing.
    @Test(arguments: ["fallback.html", "preview.html", "not-found.html"])
    func thePagesKeepTheirFieldsAndWords(name: String) throws {
        let source = try #require(PageSourcesTests.pages[name])
        let compact = try MarkupWhitespace.compact(source)
        #expect(!compact.contains("\n") && !compact.contains("  "), "\(name)")
        #expect(Self.placeholders(in: compact) == Self.placeholders(in: source), "\(name)")
        #expect(try MarkupWhitespace.compact(compact) == compact)
        #expect(compact.utf8.count < source.utf8.count)
    }

    /// The `{{…}}` and `[[…]]` of a page, in order.
    static func placeholders(in page: String) -> [Substring] {
        var found: [Substring] = []
        var rest = Substring(page)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "[" }) {
            let marker = rest[open]
            let pair = marker == "{" ? "{{" : "[["
            let close = marker == "{" ? "}}" : "]]"
            guard rest[open...].hasPrefix(pair), let end = rest[open...].range(of: close) else {
                rest = rest[rest.index(after: open)...]
                continue
            }
            found.append(rest[open..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return found
    }
}
