import EdgeServer
import Foundation
import TestSupport
import Testing

/// A link's absolute URL (the preview's `og:url`) comes from `--public-url`, never from the request's `Host`, which
/// any client sets and a preview fetcher's cache would keep.
@Suite struct LinkPublicURLTests {
    static let hostileHosts = [
        "evil.example", #"evil.example"><script>alert(1)</script>"#, "links.example.com.evil.example:8080",
        "evil.example/a/pk_acme/SAM20?",
    ]

    /// A preview fetch (or a `HEAD`) of `/a/pk_acme/SAM20` with `host` as its `Host`.
    static func preview(_ server: TestServer, host: String?, method: String = "GET") throws -> TestSupport.HTTPResponse
    {
        let hostLine = host.map { "Host: \($0)\r\n" } ?? ""
        let version = host == nil ? "HTTP/1.0" : "HTTP/1.1"
        let request = "\(method) /a/pk_acme/SAM20 \(version)\r\n\(hostLine)User-Agent: \(Agents.slack)\r\n\r\n"
        return try server.client().exchange(Array(request.utf8), isHead: method == "HEAD")
    }

    /// Before: `og:url` was `http://<Host>/a/…`, whatever the client sent as `Host`.
    @Test func withoutAPublicURLThePreviewHasNoOGURLAndNoHost() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        for host in Self.hostileHosts + ["127.0.0.1:\(server.port)"] {
            let response = try Self.preview(server, host: host)
            #expect(response.status == 200, "\(host)")
            let page = response.text
            #expect(page.contains(#"<meta property="og:title" content="Acme Pro: code SAM20">"#), "\(host)")
            #expect(!page.contains("og:url"), "\(host)")
            #expect(!page.contains("evil") && !page.contains("127.0.0.1") && !page.contains("<script"), "\(host)")
        }
    }

    @Test func withAPublicURLOGURLIsItWhateverTheHost() throws {
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com/go/") }
        defer { server.shutdown() }
        let expected = #"<meta property="og:url" content="https://links.example.com/go/a/pk_acme/SAM20">"#
        for host in Self.hostileHosts + [nil] {
            let response = try Self.preview(server, host: host)
            #expect(response.status == 200, "\(host ?? "no Host")")
            #expect(response.text.contains(expected), "\(host ?? "no Host"): \(response.text)")
            #expect(!response.text.contains("evil"), "\(host ?? "no Host")")
            let head = try Self.preview(server, host: host, method: "HEAD")
            #expect(head.header("content-length") == String(response.body.count), "\(host ?? "no Host")")
        }
        // The code as stored, percent-encoded in the path; the fallback page a person gets is unchanged.
        let lee = try server.client().request("GET", "/a/pk_acme/lee", headers: [("User-Agent", Agents.slack)])
        #expect(lee.text.contains(#"content="https://links.example.com/go/a/pk_acme/LEE">"#))
    }

    @Test func aPublicURLIsValidatedOnce() throws {
        for (given, kept) in [
            ("https://links.example.com", "https://links.example.com"),
            ("https://links.example.com/", "https://links.example.com"),
            ("HTTP://Links.Example.com:8080/go//", "HTTP://Links.Example.com:8080/go"),
            ("http://[2001:db8::1]/", "http://[2001:db8::1]"),
        ] {
            #expect(try PublicURL(given).text == kept)
        }
        for invalid in [
            "", "links.example.com", "javascript:alert(1)", "https://", "https:///go", "ftp://links.example.com",
            "https://links.example.com/?x=1", "https://links.example.com/#top", "https://user@links.example.com",
            "https://links.example.com/\u{2028}", "https://links.example.com\u{A0}/", " https://links.example.com",
            // A wildcard in the association files' paths (`/go*/a/pk_acme/*` opens `/goanything/a/…` in the app).
            "https://links.example.com/go*", "https://links.example.com/*/go",
        ] {
            let error = try #require(throws: ConfigurationError.self, "\(invalid)") { try PublicURL(invalid) }
            #expect(error.description.hasPrefix("--public-url "), "\(error)")
        }
    }

    @Test func serveTakesAPublicURLAndRefusesABadOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let refused = try ChildProcess.run(
            ["serve", "--port", "0", "--data", directory.path + "/data", "--public-url", "javascript:alert(1)"],
            outputIn: directory.path)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("--public-url javascript:alert(1): "), "\(refused.stderr)")

        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "public-url",
            arguments: ["--demo", "--public-url", "https://links.example.com"])
        defer { server.stop() }
        let request = "GET /a/pk_demo/SAM20 HTTP/1.1\r\nHost: evil.example\r\nUser-Agent: \(Agents.slack)\r\n\r\n"
        let preview = try server.client().exchange(Array(request.utf8))
        #expect(preview.text.contains(#"<meta property="og:url" content="https://links.example.com/a/pk_demo/SAM20">"#))
    }
}
