import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Click claims: a `clk_…` from an app link names its code by its signature, so it can be claimed before the
/// ingester has stored the click.
@Suite struct ClaimClickTests {
    /// Opens `/a/<key>/<code>` as an iPhone and returns the click id of the redirect.
    static func openLink(
        _ client: HTTPClient, path: String = "/a/pk_acme/SAM20", userAgent: String = Agents.iPhone
    ) throws -> String {
        let response = try client.request("GET", path, headers: [("User-Agent", userAgent)])
        guard response.status == 302, let id = LinkResponses.clickID(in: response), LinkResponses.isClickID(id) else {
            throw TestError("\(path) gave no click: \(response.status) \(response.header("location") ?? "-")")
        }
        return id
    }

    static let recent = WallClock.iso(offset: -.hour)

    @Test func aClickIsClaimedImmediatelyAfterTheLinkWasOpened() throws {
        // The ingester sleeps 2 s between passes, so the click is still only in the journal when it is claimed.
        let server = try TestServer { $0.ingestInterval = 2 }
        defer { server.shutdown() }
        usleep(300_000)  // past the ingester's first (empty) pass
        let client = server.client()
        let click = try Self.openLink(client)
        let response = try client.claim(ClaimBody.make(user: "fresh", clickID: click, firstSeenAt: Self.recent))
        let ingestedBeforeTheAnswer = try server.storedClicks().contains { $0.id == click }
        #expect(response.isClaim("claimed", user: "fresh"), "\(response.status) \(response.text)")
        #expect(!ingestedBeforeTheAnswer, "the ingester stored the click first; the test proved nothing")

        let customer = try #require(try client.customers().first)
        #expect(customer["customer_id"] as? String == "fresh")
        #expect(customer["click_id"] as? String == click)
        #expect(customer["partner_id"] as? String == "part_sam")
        #expect(customer["program_id"] as? String == "prg_acme")
        #expect(customer["code"] as? String == "SAM20")
        #expect(customer["status"] as? String == "lead")
        // And it is the click the link recorded.
        #expect(try server.waitForClick(click, within: 5))
        // The same click again (an answer lost on the way) is this same claim; another click of the code (another
        // visitor's: one visitor's taps within the dedupe window share the first one's id) is not.
        let again = try client.claim(ClaimBody.make(user: "fresh", clickID: click, firstSeenAt: Self.recent))
        #expect(again.isAlreadyClaimed(user: "fresh", sameClaim: true), "\(again.text)")
        let otherClick = try Self.openLink(client, userAgent: Agents.iPhone + " another")
        #expect(otherClick != click)
        let other = try client.claim(ClaimBody.make(user: "fresh", clickID: otherClick, firstSeenAt: Self.recent))
        #expect(other.isAlreadyClaimed(user: "fresh", sameClaim: false), "\(other.text)")
    }

    @Test func theClickWinsWhenACodeIsSentToo() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let click = try Self.openLink(client)
        let body = ClaimBody.make(user: "both", code: "LEE", clickID: click, firstSeenAt: Self.recent)
        #expect(try client.claim(body).isClaim("claimed", user: "both"))
        let customer = try #require(try client.customers().first)
        #expect(customer["partner_id"] as? String == "part_sam")
        #expect(customer["code"] as? String == "SAM20")
        #expect(customer["click_id"] as? String == click)
        // A bad click is not rescued by a good code.
        let refused = try client.claim(ClaimBody.make(user: "other", code: "LEE", clickID: "clk_bad"))
        #expect(refused.isError(404, "unknown_click"), "\(refused.text)")
    }

    @Test func aClickClaimFollowsTheWindowOfItsProgram() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let click = try Self.openLink(client)
        let missing = try client.claim(ClaimBody.make(user: "u1", clickID: click))
        #expect(missing.isError(400, "invalid_request") && missing.message.contains("first_seen_at"), "\(missing.text)")
        let old = try client.claim(
            ClaimBody.make(user: "u1", clickID: click, firstSeenAt: WallClock.iso(offset: -31 * .day)))
        #expect(old.isError(409, "claim_window_closed"), "\(old.text)")
        #expect(try client.customers().isEmpty)
    }

    @Test func garbageTamperedAndForeignClicksAre404() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let click = try Self.openLink(client)
        let characters = Array(click)
        func replaced(at index: Int) -> String {
            var copy = characters
            copy[index] = copy[index] == "A" ? "B" : "A"
            return String(copy)
        }
        let candidates = [
            "clk_garbage", "not-a-click", String(repeating: "x", count: 44), "clk_" + String(repeating: "-", count: 40),
            String(click.dropLast()), click + "A", "CLK_" + click.dropFirst(4),
            replaced(at: characters.count - 1),  // the signature
            replaced(at: 20),  // the signed bytes: code reference and random part
            replaced(at: 10),  // the timestamp
        ]
        for candidate in candidates {
            let response = try client.claim(ClaimBody.make(user: "u1", clickID: candidate, firstSeenAt: Self.recent))
            #expect(response.isError(404, "unknown_click"), "\(candidate): \(response.status) \(response.text)")
            #expect(response.message.contains("click_id"))
        }
        // A genuine click, claimed under another organization's public key.
        let foreign = try client.claim(ClaimBody.make(publicID: "pk_other", user: "u1", clickID: click))
        #expect(foreign.isError(404, "unknown_click"), "\(foreign.text)")
        #expect(try client.customers().isEmpty)
        #expect(try client.customers(key: "sk_other_secret").isEmpty)
    }

    @Test func aClickOfACodeDeactivatedSinceIsAnUnknownCode() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let click = try Self.openLink(client)
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":[{"id":"part_sam","#
                + #""codes":[{"code":"SAM20","active":false}]}]}]}]}"#)
        #expect(try eventually(within: 3) { try client.request("GET", "/a/pk_acme/SAM20").status == 404 })
        let response = try client.claim(ClaimBody.make(user: "u1", clickID: click, firstSeenAt: Self.recent))
        #expect(response.isError(404, "unknown_code"), "\(response.status) \(response.text)")
    }
}
