import Foundation
import TestSupport
import Testing
import Tolt
import ToltTestSupport

/// The product docs' snippet, run as written against a real edge that knows `YOUR_PUBLIC_KEY`: the typed code,
/// the deep link of a real tap through `.onOpenURL`, and the click id of another tap, each for the user
/// RevenueCat has at that moment.
@Suite(.serialized) struct ProductDocsSnippetTests {
    static let config = """
        {"organizations":[{"id":"org_docs","name":"Docs","public_key":"YOUR_PUBLIC_KEY","secret_key":"sk_docs_secret",
          "programs":[{"id":"prg_docs","name":"Docs App","claim_window_days":30,
            "app_links":{"deep_link_template":"myapp://claim?tolt_code={code}&tolt_click={click_id}"},
            "partners":[{"id":"part_sam","name":"Sam","status":"active","codes":[{"code":"SAM20","active":true}]}]}]}]}
        """

    @Test func theSnippetWorksAsWritten() async throws {
        let edge = try EdgeTestServer(config: Self.config)
        defer { edge.shutdown() }
        // The snippet's `baseURL` names an example host; in this sandbox every configure goes to the test's edge.
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL, redirectsEveryBaseURL: true)
        defer { sandbox.remove() }
        func customer(_ user: String) throws -> Customer? { try edge.customer(user, secretKey: "sk_docs_secret") }
        func clickTap() throws -> (link: URL, click: String) {
            let tap = try edge.tap(publicKey: "YOUR_PUBLIC_KEY", code: "SAM20", userAgent: Agents.iPhone)
            let location = try #require(tap.header("location"), "\(tap.status) \(tap.text)")
            let components = try #require(URLComponents(string: location))
            let click = try #require(components.queryItems?.first { $0.name == "tolt_click" }?.value)
            return (try #require(URL(string: location)), click)
        }

        try await sandbox.run { () async throws in
            // The user types SAM20 at onboarding.
            Purchases.shared.logIn("rc_typed")
            shownMessages.withLock { $0 = [] }
            let result = try await ProductDocsSnippet.configureAndClaimCode()
            #expect(result.status == .claimed)
            #expect(result.appUserId == "rc_typed")
            #expect(result.partnerName == "Sam")
            #expect(shownMessages.withLock { $0 } == ["Code SAM20 applied"])

            // Another user taps a partner's link; the app opens with it.
            Purchases.shared.logIn("rc_linked")
            let tapped = try clickTap()
            ProductDocsSnippet.rootView().open(tapped.link)
            #expect(try await waitUntil { try customer("rc_linked") != nil }, "the onOpenURL task claimed nothing")
            #expect(try customer("rc_linked")?.clickId == tapped.click)

            // A third user, with a click id the app read itself.
            Purchases.shared.logIn("rc_clicked")
            let other = try clickTap()
            try await ProductDocsSnippet.claim(clickId: other.click)
            #expect(try customer("rc_clicked")?.clickId == other.click)
        }
        #expect(try customer("rc_typed")?.partnerId == "part_sam")
        // Each claim carried the first open, recorded by the snippet's configure (the program has a window).
        let firstOpen = try #require(sandbox.storage.load())
        let sent = Set(try ["rc_typed", "rc_linked", "rc_clicked"].map { try customer($0)?.firstSeenAt })
        #expect(sent.count == 1)
        #expect(sent.first == FirstOpenText.iso8601(firstOpen))
    }
}

extension ProductDocsSnippetTests {
    /// The getting-started article's error handling, run as written: an unknown code, then one outside the claim
    /// window, each tells the user what went wrong.
    @Test func theErrorHandlingWorksAsWritten() async throws {
        let edge = try EdgeTestServer(config: Self.config)
        defer { edge.shutdown() }
        let sandbox = try ToltSandbox(defaultBaseURL: edge.baseURL)
        defer { sandbox.remove() }
        try sandbox.storage.save(Date().addingTimeInterval(-31 * 86_400))
        shownMessages.withLock { $0 = [] }
        try await sandbox.run { () async throws in
            Tolt.configure(publicId: "YOUR_PUBLIC_KEY")
            Purchases.shared.logIn("rc_errors")
            await ErrorHandlingSnippet.claim(typedCode: "NOPE")
            await ErrorHandlingSnippet.claim(typedCode: "SAM20")
        }
        #expect(
            shownMessages.withLock { $0 } == [
                "That code does not exist.", "Codes can be entered in the first days after installing.",
            ])
    }
}

/// Times as the edge lists them: `2026-01-31T12:00:00.123Z`.
enum FirstOpenText {
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
