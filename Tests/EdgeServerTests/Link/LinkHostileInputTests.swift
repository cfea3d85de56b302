import EdgeServer
import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// Codes, names, templates, paths and headers are hostile: a value never adds a header line, never changes
/// where a redirect goes, and never reaches a page as markup.
@Suite struct LinkHostileInputTests {
    /// Legal codes (1–64 bytes, no whitespace, control bytes or `/ ? # %`) that are dangerous in a URL or page.
    static let codes = [
        #"<b>"x"&'y'"#, "@evil.com", "javascript:alert(1)", #"\evil.com"#, "<script>alert(1)<", "'-alert(1)-'",
        "Ünïcødé", "a=b&c=d", "{click_id}", "{code}", #"x"onmouseover="alert(1)"#, ".evil.com:443@x",
    ]
    static let programName = #"Evil <i>"Pro"</i> & 'Co'"#
    static let liteName = "Lite</title><script>steal()</script>"
    static let partnerName = #"<script>alert("p")</script>"#
    static let litePartnerName = #"O'Brien & "Sons" <x>"#
    static let template = "https://app.example.com/open/{code}?c={code}&k={click_id}#{code}"
    static let playURL = "https://play.google.com/store/apps/details?id=com.evil&x='y'&z=1#frag"
    static let appStoreURL = "https://apps.apple.com/app/id1?a='b'&c=d"

    /// Two programs of `org_acme`: one with the template, one with store URLs only (codes suffixed `L`).
    static var config: String {
        func codes(_ suffix: String) -> String {
            Self.codes.map { #"{"code":\#(json($0 + suffix)),"active":true}"# }.joined(separator: ",")
        }
        return """
            {"organizations":[{"id":"org_acme","programs":[
              {"id":"prg_evil","name":\(json(programName)),"app_links":{"deep_link_template":\(json(template))},
               "partners":[{"id":"part_evil","name":\(json(partnerName)),"codes":[\(codes(""))]}]},
              {"id":"prg_evil_lite","name":\(json(liteName)),
               "app_links":{"google_play_url":\(json(playURL)),"app_store_url":\(json(appStoreURL))},
               "partners":[{"id":"part_evil_lite","name":\(json(litePartnerName)),"codes":[\(codes("L"))]}]}]}]}
            """
    }

    @Test func redirectsPercentEncodeTheCodeAndKeepTheirHost() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        try server.importConfig(Self.config)
        let client = server.client()
        #expect(
            try eventually(within: 2) {
                try client.request("GET", "/a/pk_acme/\(encode("@evil.com"))").status == 302
            })
        for code in Self.codes {
            let app = try client.request("GET", "/a/pk_acme/\(encode(code))", headers: [("User-Agent", Agents.iPhone)])
            #expect(app.status == 302, "\(code)")
            let id = try #require(LinkResponses.clickID(in: app, after: ["&k="]), "\(code)")
            let location = try #require(app.header("location"))
            let filled = encode(code)
            #expect(location == "https://app.example.com/open/\(filled)?c=\(filled)&k=\(id)#\(filled)", "\(code)")
            #expect(LinkResponses.origin(of: location) == "https://app.example.com", "\(code): \(location)")
            #expect(LinkResponses.headerLinesWithControlBytes(app).isEmpty, "\(code)")

            let play = try client.request(
                "GET", "/a/pk_acme/\(encode(code + "L"))", headers: [("User-Agent", Agents.android)])
            #expect(play.status == 302, "\(code)L")
            let playID = try #require(LinkResponses.clickID(in: play), "\(code)L")
            #expect(
                play.header("location")
                    == "https://play.google.com/store/apps/details?id=com.evil&x='y'&z=1&referrer=tolt_code%3D"
                    + encode(encode(code + "L")) + "%26tolt_click%3D\(playID)", "\(code)L")
            #expect(LinkResponses.origin(of: play.header("location") ?? "") == "https://play.google.com")
        }
        // The stored click holds the code as it is, not its encoding.
        #expect(try server.waitForClicks(count: 2 * Self.codes.count))
        #expect(Set(try server.storedClicks().map(\.code)) == Set(Self.codes + Self.codes.map { $0 + "L" }))
    }

    @Test func pagesShowEveryValueEscaped() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        try server.importConfig(Self.config)
        let client = server.client()
        #expect(
            try eventually(within: 2) {
                try client.request("GET", "/a/pk_acme/\(encode("@evil.com"))").status == 302
            })
        for code in Self.codes {
            let fallback = try client.request(
                "GET", "/a/pk_acme/\(encode(code + "L"))", headers: [("User-Agent", Agents.desktop)])
            #expect(fallback.status == 200, "\(code)")
            let page = fallback.text
            #expect(page.contains(#"<div class="code" id="code">\#(escape(code + "L"))</div>"#), "\(code)")
            #expect(page.contains(#"data-code="\#(escape(code + "L"))">"#), "\(code)")
            #expect(
                page.contains("<title>\(escape(Self.liteName)): your code \(escape(code + "L"))</title>"), "\(code)")
            #expect(page.contains("<p><bdi>\(escape(Self.litePartnerName))</bdi> shared this code"), "\(code)")
            #expect(page.contains(#"id="app-store" href="\#(escape(Self.appStoreURL))""#))
            #expect(page.contains(#"id="google-play" href="\#(escape(Self.playURL))""#))
            #expect(page.components(separatedBy: "<script").count == 2, "only the page's own copy script: \(code)")
            // The page's own `</title>` only (its markup has no line breaks: `</title><style>` is the page's).
            #expect(!page.contains("<x>") && page.components(separatedBy: "</title>").count == 2, "\(code)")

            let preview = try client.request(
                "GET", "/a/pk_acme/\(encode(code))", headers: [("User-Agent", Agents.slack)])
            #expect(preview.status == 200, "\(code)")
            let card = preview.text
            let title = "\(escape(Self.programName)): code \(escape(code))"
            #expect(card.contains(#"<meta property="og:title" content="\#(title)">"#), "\(code)")
            #expect(
                card.contains(
                    #"<meta property="og:description" content="\#(escape(Self.partnerName)) invites you to \#(escape(Self.programName)). Use code \#(escape(code)) when you sign up.">"#
                ),
                "\(code)")
            #expect(
                card.contains(
                    #"<meta property="og:url" content="https://links.example.com/a/pk_acme/\#(encode(code))">"#))
            #expect(!card.contains("<script") && !card.contains("<i>") && !card.contains("<b>"), "\(code)")
        }
    }

    @Test func hostilePathsGetNotFoundAndAddNoHeader() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let paths = [
            "/a/pk_acme/SAM20%0d%0aX-Injected:%201", "/a/pk_acme/%0d%0aLocation:%20https://evil.com",
            "/a/pk_acme%0d%0aX-Injected:%201/SAM20", "/a/pk_acme/SAM20%00",
            "/a/pk_acme/..%2f..%2fetc%2fpasswd", "/a/pk_acme/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
            "/a/pk_acme/" + String(repeating: "A", count: 65), "/a/pk_acme/" + String(repeating: "%41", count: 2000),
        ]
        for path in paths {
            for agent in [Agents.iPhone, Agents.slack] {
                let response = try client.request("GET", path, headers: [("User-Agent", agent)])
                #expect(response.status == 404, "\(path)")
                #expect(response.header("location") == nil && response.header("x-injected") == nil, "\(path)")
                #expect(LinkResponses.headerLinesWithControlBytes(response).isEmpty, "\(path)")
                #expect(!response.text.contains("<script"), "\(path)")
            }
        }
        // A line break after a code is whitespace pasted with it, dropped as claims drop it: the code's own link,
        // whose answer is built from the stored code, never from the path's bytes.
        var redirected: [String] = []
        for path in ["/a/pk_acme/SAM20%0a", "/a/pk_acme/SAM20%0d%0a", "/a/pk_acme/%0d%0aSAM20"] {
            let tap = try client.request("GET", path, headers: [("User-Agent", Agents.iPhone)])
            #expect(tap.status == 302, "\(path)")
            #expect(
                tap.header("location")?.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click=clk_") == true, "\(path)")
            #expect(LinkResponses.headerLinesWithControlBytes(tap).isEmpty, "\(path)")
            redirected.append(String(tap.header("location")?.split(separator: "=").last ?? ""))
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        // One visitor's repeat taps share the first tap's click (RepeatTapTests): each stored once.
        let expected = Set(redirected).union([sentinel])
        #expect(Set(clicks.map(\.id)) == expected && clicks.count == expected.count)
    }

    /// The `Host` header never reaches the page (``LinkPublicURLTests``): not as markup, not as text.
    @Test func aHostileHostHeaderNeverReachesThePreview() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        let host = #"evil.example"><script>alert(1)</script>"#
        let request = "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: \(Agents.slack)\r\n\r\n"
        let response = try server.client().exchange(Array(request.utf8))
        #expect(response.status == 200)
        #expect(
            response.text.contains(#"<meta property="og:url" content="https://links.example.com/a/pk_acme/SAM20">"#))
        #expect(!response.text.contains("<script") && !response.text.contains("evil"))
    }

    /// Every branch's head is well-formed: `token: printable value` lines only, and the server's own name intact
    /// (h2o keeps pointers to header values, so a value built in a temporary shows up as garbage here).
    @Test func everyBranchSendsAWellFormedHead() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let requests = [
            ("GET", "/a/pk_acme/SAM20", Agents.iPhone), ("GET", "/a/pk_acme/LEE", Agents.android),
            ("GET", "/a/pk_acme/LEE", Agents.desktop), ("GET", "/a/pk_acme/SAM20", Agents.slack),
            ("HEAD", "/a/pk_acme/SAM20", Agents.iPhone), ("GET", "/a/pk_acme/NOPE", Agents.iPhone),
            ("POST", "/a/pk_acme/SAM20", Agents.iPhone), ("GET", "/v1/clicks", Agents.curl),
        ]
        let token = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for (method, path, agent) in requests {
            let response = try client.request(method, path, headers: [("User-Agent", agent)])
            for line in HTTPResponses.split(response.rawHead).dropFirst() {
                let colon = line.firstIndex(of: 0x3A) ?? line.endIndex
                let name = line[..<colon]
                let value = line[colon...].dropFirst()
                let printable = value.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
                #expect(
                    !name.isEmpty && name.allSatisfy(token.contains) && printable,
                    "\(method) \(path): \(String(decoding: line, as: UTF8.self).debugDescription)")
            }
            #expect(response.header("server") == "tolt-edge", "\(method) \(path)")
            #expect(response.headers.filter { $0.name.lowercased() == "server" }.count == 1, "\(method) \(path)")
        }
    }

    /// The importer refuses control bytes, but the store is shared: a value written by another tool must still
    /// never reach a header as it is.
    @Test func storedValuesThatSkippedValidationNeverSplitAHeader() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var changes = ConfigChanges()
        changes.programs = [
            ProgramRecord(
                id: "prg_raw", organizationID: "org_acme", name: "Raw",
                googlePlayURL: "https://play.google.com/x?id=1\r\nX-Injected: play"),
            ProgramRecord(
                id: "prg_raw2", organizationID: "org_acme", name: "Raw 2",
                deepLinkTemplate: "myapp://x?c={code}\r\nX-Injected: template"),
        ]
        changes.partners = [
            PartnerRecord(id: "part_raw", programID: "prg_raw", name: "Raw", status: "active"),
            PartnerRecord(id: "part_raw2", programID: "prg_raw2", name: "Raw", status: "active"),
        ]
        changes.codes = [
            CodeRecord(reference: 0, partnerID: "part_raw", code: "RAW1", active: true),
            CodeRecord(reference: 0, partnerID: "part_raw2", code: "RAW2", active: true),
        ]
        try server.store.applyConfig(changes, expectedRevision: try server.store.configRevision())
        let client = server.client()
        #expect(try eventually(within: 2) { try client.request("GET", "/a/pk_acme/RAW2").status != 404 })
        for path in ["/a/pk_acme/RAW1", "/a/pk_acme/RAW2"] {
            for agent in [Agents.android, Agents.iPhone, Agents.desktop] {
                let response = try client.request("GET", path, headers: [("User-Agent", agent)])
                #expect(response.header("x-injected") == nil, "\(path) as \(agent)")
                #expect(LinkResponses.headerLinesWithControlBytes(response).isEmpty, "\(path) as \(agent)")
                if let location = response.header("location") {
                    #expect(!location.contains("\r") && !location.contains("\n"), "\(path)")
                }
            }
        }
    }
}

extension LinkHostileInputTests {
    /// Before: a `javascript:` template, or one holding U+2028, was sent as `Location`. The importer refuses them
    /// now, and values that reached the store another way (another tool, an older version's import) are ignored
    /// when the link table is built: no redirect, no badge.
    @Test func storedLinksThatBreakTheURLRulesNeverReachABrowser() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let programs: [(id: String, code: String, template: String?, play: String?, appStore: String?)] = [
            ("prg_js", "JS1", "javascript:alert(document.cookie)//{click_id}", nil, "https://apps.apple.com/app/id1"),
            ("prg_data", "DATA1", " DATA:text/html,<script>alert(1)</script>{code}", "javascript:alert(1)", nil),
            ("prg_vb", "VB1", "VBScript:msgbox({code})", nil, nil),
            ("prg_file", "FILE1", "\tfile:///etc/passwd?{code}", nil, nil),
            (
                "prg_sep", "SEP1", "myapp://claim\u{2028}?c={code}", "https://play.google.com/store\u{A0}/apps",
                "https://apps.apple.com@evil.example/app"
            ),
            ("prg_bom", "BOM1", "\u{FEFF}myapp://claim?c={code}", "https://play.google.com/\u{2029}x", "http://"),
        ]
        var changes = ConfigChanges()
        for program in programs {
            changes.programs.append(
                ProgramRecord(
                    id: program.id, organizationID: "org_acme", name: "Program \(program.code)",
                    deepLinkTemplate: program.template,
                    googlePlayURL: program.play, appStoreURL: program.appStore))
            changes.partners.append(
                PartnerRecord(id: "part_" + program.id, programID: program.id, name: "Partner", status: "active"))
            changes.codes.append(
                CodeRecord(reference: 0, partnerID: "part_" + program.id, code: program.code, active: true))
        }
        try server.store.applyConfig(changes, expectedRevision: try server.store.configRevision())
        let client = server.client()
        #expect(try eventually(within: 2) { try client.request("GET", "/a/pk_acme/BOM1").status != 404 })
        for program in programs {
            for agent in [Agents.iPhone, Agents.android, Agents.desktop, Agents.slack] {
                let response = try client.request("GET", "/a/pk_acme/\(program.code)", headers: [("User-Agent", agent)])
                #expect(response.status == 200, "\(program.code) as \(agent): \(response.status)")
                #expect(response.header("location") == nil, "\(program.code): \(response.header("location") ?? "")")
                let page = response.text
                for refused in ["javascript:", "DATA:", "VBScript:", "file:", "evil.example", "\u{2028}", "\u{A0}"] {
                    #expect(!page.contains(refused), "\(program.code) as \(agent): \(refused.debugDescription)")
                }
            }
        }
        // A valid URL beside a refused template still shows.
        let page = try client.request("GET", "/a/pk_acme/JS1", headers: [("User-Agent", Agents.iPhone)])
        #expect(page.text.contains(#"id="app-store" href="https://apps.apple.com/app/id1""#))
    }
}

extension LinkHostileInputTests {
    /// Before: a Play URL with text above ASCII (which earlier versions imported) went out in the Android redirect's
    /// `Location` as raw UTF-8, read as Latin-1 by some clients. The import refuses one now; one already stored still
    /// redirects, its text above ASCII percent-encoded as a browser would send it.
    @Test func aStoredPlayURLAboveASCIIRedirectsWithAnASCIILocation() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        var changes = ConfigChanges()
        changes.programs = [
            ProgramRecord(
                id: "prg_utf8", organizationID: "org_acme", name: "UTF-8",
                googlePlayURL: "https://play.google.com/store/apps/details?id=com.example&hl=fr-é")
        ]
        changes.partners = [PartnerRecord(id: "part_utf8", programID: "prg_utf8", name: "P", status: "active")]
        changes.codes = [CodeRecord(reference: 0, partnerID: "part_utf8", code: "UTF8", active: true)]
        try server.store.applyConfig(changes, expectedRevision: try server.store.configRevision())
        let client = server.client()
        #expect(try eventually(within: 2) { try client.request("GET", "/a/pk_acme/UTF8").status != 404 })
        let response = try client.request("GET", "/a/pk_acme/UTF8", headers: [("User-Agent", Agents.android)])
        #expect(response.status == 302)
        let location = try #require(response.header("location"))
        #expect(location.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(location.debugDescription)")
        #expect(
            location.hasPrefix(
                "https://play.google.com/store/apps/details?id=com.example&hl=fr-%C3%A9&referrer=tolt_code%3DUTF8"),
            "\(location)")
    }
}

/// RFC 3986 percent-encoding of everything but unreserved bytes, written here independently of the product.
private func encode(_ text: String) -> String {
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
        if unreserved.contains(byte) {
            out.append(byte)
        } else {
            out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// HTML escaping of `& < > " '`, written here independently of the product.
private func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}

/// A JSON string literal.
private func json(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
