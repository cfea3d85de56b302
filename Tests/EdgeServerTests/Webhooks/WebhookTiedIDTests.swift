import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The user ids an event found by its transaction ties (README's webhook section, "However it was found, an event's
/// user ids are one user", and claim rule 4): after the
/// first purchase every renewal is found by the subscription it renews, and the ids it names (a login's
/// `$RCAnonymousID` on a new device) were never tied, so another partner could claim one as a second customer. They
/// are now tied to the customer they lead to, else to the customer of the purchase; a family-shared event's never to
/// the buyer's.
@Suite struct WebhookTiedIDTests {
    /// A renewal of `transaction`'s subscription (`original_transaction_id`), reported under `user` with `aliases`.
    static func renewal(
        user: String, aliases: [String], transaction: String, of original: String, _ fields: [String: Any?] = [:]
    ) -> [UInt8] {
        var all: [String: Any?] = ["aliases": aliases, "original_transaction_id": original]
        all.merge(fields) { $1 }
        return RevenueCatPayload.purchase("RENEWAL", user: user, price: "9.99", transaction: transaction, all)
    }

    /// `old-id` claimed and paying (`S1`), its subscription transferred to `new-id` and renewed (`S2`) under
    /// `new-id` and the new device's anonymous id, which it returns.
    static func transferAndRenew(_ server: TestServer) throws -> String {
        try server.claimUser("old-id")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "old-id", price: "9.99", transaction: "S1"))
        #expect(try client.deliver(RevenueCatPayload.transfer(from: ["old-id"], to: ["new-id"])) == "transferred")
        let anonymous = "$RCAnonymousID:new-device"
        let renewal = Self.renewal(user: "new-id", aliases: ["new-id", anonymous], transaction: "S2", of: "S1")
        #expect(try client.deliver(renewal) == "commission_created")
        return anonymous
    }

    /// The report's story: a renewal names the anonymous id of a login on a new device; a claim of it by another
    /// partner is `already_claimed`, no second customer is made, and a purchase under that id alone pays the partner.
    @Test(arguments: StoreKind.allCases) func aRenewalTiesTheAnonymousIDOfANewDevice(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("user_42")
        let client = server.client()
        let anonymous = "$RCAnonymousID:0f1e2d"
        #expect(
            try client.deliver(RevenueCatPayload.purchase(user: "user_42", price: "9.99", transaction: "T1"))
                == "commission_created")
        let renewal = Self.renewal(user: "user_42", aliases: ["user_42", anonymous], transaction: "T2", of: "T1")
        #expect(try client.deliver(renewal) == "commission_created")

        let claim = try client.claim(ClaimBody.recent(user: anonymous, code: "LEE"))
        #expect(claim.isAlreadyClaimed(user: anonymous, sameClaim: false), "\(claim.text)")
        #expect(try client.customers().compactMap { $0["customer_id"] as? String } == ["user_42"])
        let alone = RevenueCatPayload.purchase(user: anonymous, price: "9.99", transaction: "T3")
        #expect(try client.deliver(alone) == "commission_created")
        #expect(try client.commissions().map { $0["partner_id"] as? String } == Array(repeating: "part_sam", count: 3))
    }

    /// README's event table: a type that pays nothing (`TEST`, `BILLING_ISSUE`, one added later) is `ignored`, and
    /// still ties its user ids to the customer they lead to, as every production event of a customer does: a claim of
    /// its alias is then `already_claimed`. One whose ids lead to no customer is `ignored` too, not `unattributed`: no
    /// claim applies it later, so it ties nothing. A sandbox one ties nothing.
    @Test func anEventThatPaysNothingStillTiesItsUserIDs() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("user_7")
        let client = server.client()
        for (type, alias) in [("BILLING_ISSUE", "anon-7a"), ("TEST", "anon-7b"), ("A_TYPE_FROM_2030", "anon-7c")] {
            let event = RevenueCatPayload.make(
                type, ["app_user_id": "user_7", "original_app_user_id": "user_7", "aliases": ["user_7", alias]])
            #expect(try client.deliver(event) == "ignored", "\(type)")
            let claim = try client.claim(ClaimBody.recent(user: alias, code: "LEE"))
            #expect(claim.isAlreadyClaimed(user: alias, sameClaim: false), "\(type): \(claim.text)")
        }
        let sandbox = RevenueCatPayload.make(
            "BILLING_ISSUE", ["app_user_id": "user_7", "aliases": ["user_7", "anon-7s"], "environment": "SANDBOX"])
        #expect(try client.deliver(sandbox) == "sandbox")
        #expect(try client.claim(ClaimBody.recent(user: "anon-7s", code: "LEE")).status == 200)

        let early = RevenueCatPayload.make(
            "BILLING_ISSUE", ["app_user_id": "user_8", "original_app_user_id": "user_8", "aliases": ["anon-8"]])
        #expect(try client.deliver(early) == "ignored")
        try server.claimUser("user_8")
        let claim = try client.claim(ClaimBody.recent(user: "anon-8", code: "LEE"))
        #expect(claim.status == 200 && !claim.text.contains("already_claimed"), "\(claim.text)")
        #expect(try client.customers().count == 4, "user_7, anon-7s, user_8 and anon-8")
    }

    /// A `TRANSFER` moves the subscription to a new id; its renewals, found by the subscription, name the new id and
    /// the new device's anonymous id, which become the subscription's customer too.
    @Test(arguments: StoreKind.allCases) func renewalsAfterATransferTieTheNewUsersIDs(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let anonymous = try Self.transferAndRenew(server)
        let client = server.client()

        for user in ["new-id", anonymous] {
            let claim = try client.claim(ClaimBody.recent(user: user, code: "LEE"))
            #expect(claim.isAlreadyClaimed(user: user, sameClaim: false), "\(user): \(claim.text)")
        }
        #expect(try client.customers().count == 1)
        #expect(try client.customer("old-id")["commission_cents"] as? Int == 400)
    }

    /// `customer_id` finds a customer by any of its ids: the one it was claimed with, its `cust_…` id, and the ids
    /// RevenueCat tied to it (a `TRANSFER`'s new id, an anonymous id a renewal named beside it), on both lists and in
    /// `tolt-edge customers`; only the claimed id and the `cust_…` id did.
    @Test(arguments: StoreKind.allCases) func customerIDFindsTheCustomerByAnIDTiedToIt(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("someone-else")
        let anonymous = try Self.transferAndRenew(server)
        let client = server.client()
        let id = try #require(try client.customer("old-id")["id"] as? String)
        for user in ["old-id", id, "new-id", anonymous] {
            let query = "customer_id=" + PercentEncoding.encode(user)
            #expect(try client.customers(query).map { $0["id"] as? String } == [id], "\(user)")
            #expect(try client.commissions(query).map { $0["transaction_id"] as? String } == ["S2", "S1"], "\(user)")
        }
        #expect(try client.customers("customer_id=nobody").isEmpty)
        #expect(try client.commissions("customer_id=someone-else").isEmpty)
        guard kind == .sqlite else { return }
        let run = try ChildProcess.run(
            ["customers", "--data", server.directory, "--org", "org_acme", "--customer-id", "new-id"],
            outputIn: server.directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""id":"\#(id)""#) && run.stdout.contains("old-id"), "\(run.stdout)")
    }

    /// An id another partner claimed first stays that partner's customer's: a `TRANSFER` to it and the renewals
    /// under it still pay the subscription's partner (by `original_transaction_id`), and the new device's anonymous
    /// id those renewals name goes with the id they lead to, the other partner's customer, not a third one.
    @Test(arguments: StoreKind.allCases) func renewalsUnderAnIDAnotherPartnerClaimedFirstLeaveItThere(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("lee-user", code: "LEE")
        try server.claimUser("sam-user")
        try client.deliver(RevenueCatPayload.purchase(user: "sam-user", price: "9.99", transaction: "P1"))
        #expect(try client.deliver(RevenueCatPayload.transfer(from: ["sam-user"], to: ["lee-user"])) == "transferred")
        let anonymous = "$RCAnonymousID:lee-phone"
        let renewal = Self.renewal(user: "lee-user", aliases: ["lee-user", anonymous], transaction: "P2", of: "P1")
        #expect(try client.deliver(renewal) == "commission_created")
        #expect(try client.commissions().map { $0["partner_id"] as? String } == ["part_sam", "part_sam"])

        for (user, code) in [("lee-user", "SAM20"), (anonymous, "SAM20")] {
            let claim = try client.claim(ClaimBody.recent(user: user, code: code))
            #expect(claim.isAlreadyClaimed(user: user, sameClaim: false), "\(user): \(claim.text)")
        }
        let claim = try client.claim(ClaimBody.recent(user: "sam-user", code: "LEE"))
        #expect(claim.isAlreadyClaimed(user: "sam-user", sameClaim: false), "\(claim.text)")
        #expect(try client.customers().count == 2)
        // A purchase under the anonymous id alone is the customer Lee claimed first.
        let alone = RevenueCatPayload.purchase(user: anonymous, price: "9.99", transaction: "P3")
        #expect(try client.deliver(alone) == "commission_created")
        #expect(try client.commissions("limit=1").first?["partner_id"] as? String == "part_lee")
    }

    /// Two ids claimed by two partners, named together by a renewal (a login merged them): they are one user, and
    /// the customer claimed first has both, as an event found by its ids would have made it; the renewal itself
    /// still pays the subscription's partner.
    @Test(arguments: StoreKind.allCases) func aRenewalNamingAnIDClaimedLaterGivesItToTheFirstClaimed(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("first")
        try server.claimUser("later", code: "LEE")
        try client.deliver(RevenueCatPayload.purchase(user: "later", price: "9.99", transaction: "L1"))
        let renewal = Self.renewal(user: "later", aliases: ["later", "first"], transaction: "L2", of: "L1")
        #expect(try client.deliver(renewal) == "purchase_recorded", "Lee's rule pays the first purchase only")
        let claim = try client.claim(ClaimBody.recent(user: "later", code: "LEE"))
        #expect(claim.isAlreadyClaimed(user: "later", sameClaim: false), "\(claim.text)")
        let alone = RevenueCatPayload.purchase(user: "later", price: "9.99", transaction: "L3")
        #expect(try client.deliver(alone) == "commission_created")
        #expect(try client.commissions("limit=1").first?["partner_id"] as? String == "part_sam")
        // "later" is Lee's customer's claimed id and an id tied to Sam's: the filter finds both customers.
        let found = try client.customers("customer_id=later").compactMap { $0["partner_id"] as? String }
        #expect(found.sorted() == ["part_lee", "part_sam"], "\(found)")
        let paid = try client.commissions("customer_id=later").compactMap { $0["transaction_id"] as? String }
        #expect(paid == ["L3", "L1"], "\(paid)")
    }

    /// Apple's Family Sharing: the member's renewal carries the buyer's subscription, but the member is another
    /// person, whose ids are not the buyer's customer's; another partner can still claim them.
    @Test(arguments: StoreKind.allCases) func aFamilySharedRenewalDoesNotTieTheMemberToTheBuyer(kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("buyer")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "buyer", price: "9.99", transaction: "F1"))
        let shared = Self.renewal(
            user: "member", aliases: ["member", "$RCAnonymousID:member"], transaction: "F2", of: "F1",
            ["is_family_share": true])
        #expect(try client.deliver(shared) == "family_share")
        let claim = try client.claim(ClaimBody.recent(user: "member", code: "LEE"))
        #expect(claim.isClaim("claimed", user: "member"), "\(claim.text)")
    }
}
