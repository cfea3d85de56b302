import EdgeServer
import Foundation
import TestSupport
import Testing

/// The host's association files, `/.well-known/apple-app-site-association` (and `/apple-app-site-association`) and
/// `/.well-known/assetlinks.json`, over real sockets: built from every organization's programs, each iOS entry
/// limited to its organization's links, answered to `GET` and `HEAD` with a short `Cache-Control`, `404` in the API's
/// error shape where no program lists an app of the kind, `405` to other methods, and rebuilt on a reload.
@Suite struct AppAssociationTests {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
    static let otherFingerprint = String(repeating: "AB:", count: 31) + "CD"

    /// `pk_acme` lists both kinds of app in two programs (one app in both, with another fingerprint); `pk_other`
    /// lists none.
    static let config = """
        {"organizations":[
          {"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret","programs":[
            {"id":"prg_acme","name":"Acme Pro",
             "app_links":{"ios_app_ids":["ABCDE12345.com.acme.app"],
                          "android_apps":[{"package_name":"com.acme.app","sha256_cert_fingerprints":["\(fingerprint.lowercased())"]}]},
             "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]},
            {"id":"prg_lite","name":"Acme Lite",
             "app_links":{"ios_app_ids":["ABCDE12345.com.acme.app","ABCDE12345.com.acme.lite"],
                          "android_apps":[{"package_name":"com.acme.app","sha256_cert_fingerprints":["\(otherFingerprint)"]}]}}]},
          {"id":"org_other","name":"Other","public_key":"pk_other","secret_key":"sk_other_secret","programs":[
            {"id":"prg_other","name":"Other App",
             "partners":[{"id":"part_zed","name":"Zed","status":"active","codes":[{"code":"ZED","active":true}]}]}]}
        ]}
        """

    static func appleEntry(_ id: String, paths: [String]) -> String {
        let components = paths.map { #"{"/":"\#($0)"}"# }.joined(separator: ",")
        let quoted = paths.map { #""\#($0)""# }.joined(separator: ",")
        return #"{"appID":"\#(id)","appIDs":["\#(id)"],"components":[\#(components)],"paths":[\#(quoted)]}"#
    }

    static let apple =
        #"{"applinks":{"apps":[],"details":["#
        + appleEntry("ABCDE12345.com.acme.app", paths: ["/a/pk_acme/*"]) + ","
        + appleEntry("ABCDE12345.com.acme.lite", paths: ["/a/pk_acme/*"]) + "]}}\n"

    static let android =
        #"[{"relation":["delegate_permission/common.handle_all_urls"],"#
        + #""relation_extensions":{"delegate_permission/common.handle_all_urls":"#
        + #"{"dynamic_app_link_components":[{"/":"/a/pk_acme/*"}]}},"target":{"namespace":"android_app","#
        + #""package_name":"com.acme.app","sha256_cert_fingerprints":["\#(fingerprint)","\#(otherFingerprint)"]}}]"#
        + "\n"

    /// `GET` answers the file with its type, length and cache lifetime; `HEAD` the same head without the body.
    static func expectServed(_ client: HTTPClient, _ path: String, _ file: String) throws {
        let response = try client.request("GET", path)
        #expect(response.status == 200, "\(path)")
        #expect(response.text == file, "\(path): \(response.text)")
        #expect(response.header("content-type") == "application/json", "\(path)")
        #expect(response.header("content-length") == String(file.utf8.count), "\(path)")
        #expect(response.header("cache-control") == "public, max-age=300", "\(path)")
        #expect(response.header("x-content-type-options") == "nosniff", "\(path): as every JSON answer")
        #expect(response.header("location") == nil, "\(path): served directly, never redirected")
        let head = try client.request("HEAD", path)
        #expect(head.status == 200, "\(path)")
        #expect(head.body.isEmpty, "\(path)")
        #expect(head.header("content-length") == String(file.utf8.count), "\(path)")
        #expect(head.header("content-type") == "application/json", "\(path)")
        #expect(head.header("cache-control") == "public, max-age=300", "\(path)")
    }

    static func expectNotFound(_ client: HTTPClient, _ path: String) throws {
        for method in ["GET", "HEAD"] {
            let response = try client.request(method, path)
            #expect(response.status == 404, "\(method) \(path)")
            #expect(response.header("cache-control") == "no-store", "\(method) \(path)")
            if method == "GET" {
                #expect(
                    response.text == #"{"success":false,"message":"No such path: \#(path)","error":"not_found"}"#
                        + "\n",
                    "\(response.text)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func bothFilesHoldEveryOrganizationsAppsAndAnswerGetAndHead(kind: StoreKind)
        throws
    {
        let server = try TestServer(config: Self.config, store: kind)
        defer { server.shutdown() }
        let client = server.client()
        try Self.expectServed(client, "/.well-known/apple-app-site-association", Self.apple)
        try Self.expectServed(client, "/apple-app-site-association", Self.apple)
        try Self.expectServed(client, "/.well-known/assetlinks.json", Self.android)
        // The JSON parses as what the systems read.
        let apple = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.apple.utf8)) as? [String: [String: Any]])
        #expect((apple["applinks"]?["details"] as? [Any])?.count == 2)
        let android = try #require(try JSONSerialization.jsonObject(with: Data(Self.android.utf8)) as? [[String: Any]])
        #expect(android.count == 1)
        let rules =
            (android.first?["relation_extensions"] as? [String: [String: Any]])?[
                "delegate_permission/common.handle_all_urls"]?["dynamic_app_link_components"] as? [[String: String]]
        #expect(rules == [["/": "/a/pk_acme/*"]])
        // The link itself answers as before: an iPhone without the app gets the page.
        let tap = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 200)
    }

    @Test(arguments: StoreKind.allCases) func withNoAppAnywhereBothAre404(kind: StoreKind) throws {
        let server = try TestServer(store: kind)
        defer { server.shutdown() }
        let client = server.client()
        for path in [
            "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
        ] {
            try Self.expectNotFound(client, path)
        }
    }

    @Test func onlyOneKindConfiguredServesThatOne() throws {
        let server = try TestServer(
            config: #"""
                {"organizations":[{"id":"org_acme","name":"Acme","public_key":"pk_acme","secret_key":"sk_acme_secret",
                  "programs":[{"id":"prg_acme","name":"Acme Pro","app_links":{"ios_app_ids":["ABCDE12345.com.acme.app"]}}]}]}
                """#)
        defer { server.shutdown() }
        let client = server.client()
        try Self.expectServed(
            client, "/.well-known/apple-app-site-association",
            #"{"applinks":{"apps":[],"details":["#
                + Self.appleEntry("ABCDE12345.com.acme.app", paths: ["/a/pk_acme/*"]) + "]}}\n")
        try Self.expectNotFound(client, "/.well-known/assetlinks.json")
    }

    @Test func otherMethodsAre405WithAllow() throws {
        let server = try TestServer(config: Self.config)
        defer { server.shutdown() }
        let client = server.client()
        for path in [
            "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
        ] {
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let refused = try client.request(method, path)
                #expect(refused.status == 405, "\(method) \(path)")
                #expect(refused.header("allow") == "GET, HEAD", "\(method) \(path)")
                #expect(refused.jsonObject?["error"] as? String == "method_not_allowed", "\(method) \(path)")
            }
        }
    }

    /// A path prefix of `--public-url` (a proxy forwarding `https://example.com/go/…`) is in the iOS paths and the
    /// Android rules, as phones see the links.
    @Test func thePublicURLsPathPrefixesThePaths() throws {
        let server = try TestServer(config: Self.config) { $0.publicURL = try? PublicURL("https://example.com/go/") }
        defer { server.shutdown() }
        let response = try server.client().request("GET", "/.well-known/apple-app-site-association")
        #expect(response.text.contains(#"{"/":"/go/a/pk_acme/*"}],"paths":["/go/a/pk_acme/*"]"#), "\(response.text)")
        let android = try server.client().request("GET", "/.well-known/assetlinks.json")
        #expect(android.text.contains(#""dynamic_app_link_components":[{"/":"/go/a/pk_acme/*"}]"#), "\(android.text)")
    }

    /// An import changes the files within 2 seconds, as it changes the links; clearing the last app takes them down.
    @Test(arguments: StoreKind.allCases) func aReloadRebuildsTheFiles(kind: StoreKind) throws {
        let server = try TestServer(config: Self.config, store: kind)
        defer { server.shutdown() }
        let client = server.client()
        try Self.expectServed(client, "/.well-known/assetlinks.json", Self.android)
        try server.importConfig(
            #"""
            {"organizations":[{"id":"org_other","programs":[{"id":"prg_other",
              "app_links":{"ios_app_ids":["ZYXWV98765.com.other.app"]}}]}]}
            """#)
        let expected =
            #"{"applinks":{"apps":[],"details":["#
            + Self.appleEntry("ABCDE12345.com.acme.app", paths: ["/a/pk_acme/*"]) + ","
            + Self.appleEntry("ABCDE12345.com.acme.lite", paths: ["/a/pk_acme/*"]) + ","
            + Self.appleEntry("ZYXWV98765.com.other.app", paths: ["/a/pk_other/*"]) + "]}}\n"
        #expect(
            try eventually(within: 2) {
                try client.request("GET", "/.well-known/apple-app-site-association").text == expected
            })
        try Self.expectServed(client, "/.well-known/apple-app-site-association", expected)

        try server.importConfig(
            #"""
            {"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","app_links":{"android_apps":null}},
              {"id":"prg_lite","app_links":{"android_apps":[]}}]}]}
            """#)
        #expect(try eventually(within: 2) { try client.request("GET", "/.well-known/assetlinks.json").status == 404 })
        try Self.expectNotFound(client, "/.well-known/assetlinks.json")
    }
}
