import Foundation
import TestSupport
import Testing
import ToltTestSupport

@testable import Tolt

/// `claim(url:)` on the partner's link itself, `<edge>/a/<public key>/<code>`, which the system hands an app when the
/// edge's host is one of its universal-link (or App Link) domains and the app is installed.
@Suite(.highPriority) struct EdgeLinkClaimTests {
    static let edge = URL(string: "https://links.example.com")!

    static func target(_ link: String, edge: URL = edge, publicId: String = "pk_acme") throws -> ClaimTarget? {
        ClaimTarget(link: try #require(URL(string: link)), edge: edge, publicId: publicId)
    }

    @Test func theCodeOfALinkOfTheConfiguredEdgeAndKey() throws {
        for link in [
            "https://links.example.com/a/pk_acme/SAM20",
            "https://links.example.com/a/pk_acme/SAM20/",
            "https://links.example.com/a/pk_acme/SAM20?utm_source=instagram&tolt=x",
            "https://links.example.com/a/pk_acme/SAM20#top",
            "HTTPS://LINKS.Example.COM/a/pk_acme/SAM20",
            "https://links.example.com/a/pk_acme/S%41M20",
            "https://links.example.com:443/a/pk_acme/SAM20",  // the scheme's port, written
        ] {
            #expect(try Self.target(link) == .code("SAM20"), "\(link)")
        }
        // The code as the edge reads it: percent-decoded, case kept (the edge matches it without case).
        #expect(try Self.target("https://links.example.com/a/pk_acme/caf%C3%A9") == .code("café"))
        #expect(try Self.target("https://links.example.com/a/pk_acme/sam20") == .code("sam20"))
        #expect(try Self.target("https://links.example.com/a/pk_acme/A+B") == .code("A+B"))
        // An edge under a path, and one on a port.
        let prefixed = URL(string: "https://example.com/tolt/")!
        #expect(try Self.target("https://example.com/tolt/a/pk_acme/SAM20", edge: prefixed) == .code("SAM20"))
        #expect(try Self.target("https://example.com/a/pk_acme/SAM20", edge: prefixed) == nil)
        let local = URL(string: "http://127.0.0.1:8080")!
        #expect(try Self.target("http://127.0.0.1:8080/a/pk_acme/SAM20", edge: local) == .code("SAM20"))
        #expect(try Self.target("http://127.0.0.1:8081/a/pk_acme/SAM20", edge: local) == nil)
    }

    @Test func linksOfAnotherEdgeKeyOrPathAreNotClaimed() throws {
        for link in [
            "https://other.example.com/a/pk_acme/SAM20",  // another host
            "https://links.example.com.evil.example/a/pk_acme/SAM20",
            "http://links.example.com/a/pk_acme/SAM20",  // another scheme
            "https://links.example.com:8443/a/pk_acme/SAM20",  // another port
            "https://links.example.com/a/pk_other/SAM20",  // another organization's key
            "https://links.example.com/a/PK_ACME/SAM20",  // keys are exact, as on the edge
            "https://links.example.com/a/pk_acme/SAM20/more",
            "https://links.example.com/a/pk_acme/SAM20//",
            "https://links.example.com/a/pk_acme/",
            "https://links.example.com/a/pk_acme",
            "https://links.example.com/a//SAM20",
            "https://links.example.com/b/pk_acme/SAM20",
            "https://links.example.com/x/a/pk_acme/SAM20",
            "https://links.example.com/a/pk_acme/%25ZZ",  // no code holds a `%`
            "myapp://links.example.com/a/pk_acme/SAM20",
        ] {
            #expect(try Self.target(link) == nil, "\(link)")
        }
    }

    @Test func whatMayBeAnEdgeLink() throws {
        for (link, may) in [
            ("https://any.example/a/k/c", true), ("https://any.example/a/k/c/", true),
            ("https://any.example/tolt/a/k/c?x=1", true), ("myapp://host/a/k/c", true),
            ("https://any.example/a/k", false), ("https://any.example/a/k/c/d", false),
            ("https://any.example/a//c", false), ("https://any.example/", false), ("myapp://claim", false),
        ] {
            #expect(ClaimTarget.mayBeEdgeLink(try #require(URL(string: link))) == may, "\(link)")
        }
    }

    /// Against a real edge: the link a person would have tapped claims its code for the app's user, the marketer's
    /// query is not read, and links that are not the configured edge's and key's send nothing.
    @Test func aLinkThatOpenedTheAppClaimsItsCode() async throws {
        let edge = try EdgeTestServer()
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: URL(string: "http://127.0.0.1:9")!)
        defer { sandbox.remove() }
        let link = URL(string: "\(edge.baseURL.absoluteString)/a/pk_acme/sam20?utm_source=instagram")!
        try await sandbox.run { () async throws in
            // Before configure, only the configuration could tell whether the link is the edge's.
            await #expect(throws: ToltError.notConfigured) { try await Tolt.claim(url: link, appUserId: "direct") }
            Tolt.configure(publicId: "pk_acme", baseURL: edge.baseURL)
            for other in [
                "\(edge.baseURL.absoluteString)/a/pk_other/ZED", "https://links.example.com/a/pk_acme/SAM20",
                "\(edge.baseURL.absoluteString)/a/pk_acme/SAM20/x",
            ] {
                #expect(try await Tolt.claim(url: URL(string: other)!, appUserId: "direct") == nil, "\(other)")
            }
            let result = try #require(try await Tolt.claim(url: link, appUserId: "direct"))
            #expect(result.status == .claimed)
            // The query form still wins where a template put one on the edge's own host.
            let both = URL(string: "\(edge.baseURL.absoluteString)/a/pk_acme/SAM20?tolt_code=LEE")!
            #expect(try await Tolt.claim(url: both, appUserId: "query")?.status == .claimed)
        }
        let customer = try #require(try edge.customer("direct"))
        #expect(customer.partnerId == "part_sam" && customer.code == "SAM20" && customer.clickId == nil)
        #expect(try edge.customer("query")?.code == "LEE")
        #expect(sandbox.state.failedAttempts == 0)
    }
}
