import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// `aliases` and `aliases_truncated` on `GET /v1/customers`: the other app user ids RevenueCat tied to a customer (an
/// event's `aliases`, a `TRANSFER`'s new ids), in byte order, the first 100, and whether it has more. Real events
/// through the webhook, on a real SQLite file and a real PostgreSQL database.
@Suite struct CustomerAliasTests {
    /// The webhook fixture with `org_other` taking webhooks too, under the same authorization value as `org_acme`.
    static let config = TestServer.webhookConfig.replacingOccurrences(
        of: #""secret_key":"sk_other_secret","#,
        with: #""secret_key":"sk_other_secret","revenuecat":{"authorization":"\#(TestServer.authorization)"},"#)

    static func server(_ kind: StoreKind) throws -> TestServer {
        try TestServer(config: config, store: kind)
    }

    /// The listed customer claimed as `user` (from the whole first page, not the `customer_id` filter, which finds
    /// every customer an id names): its `aliases`, and `aliases_truncated` (nil when either is missing).
    static func aliases(_ client: HTTPClient, of user: String, key: String = "sk_acme_secret") throws -> (
        ids: [String]?, truncated: Bool?
    ) {
        let customers = try client.customers("limit=100", key: key)
        let customer = try #require(customers.first { $0["customer_id"] as? String == user }, "no customer \(user)")
        return (customer["aliases"] as? [String], customer["aliases_truncated"] as? Bool)
    }

    /// A purchase by `user` whose event names `aliases` (`aliases` of RevenueCat: ids merged into the user).
    static func purchase(user: String, aliases: [String], transaction: String) -> [UInt8] {
        RevenueCatPayload.purchase(user: user, price: "9.99", transaction: transaction, ["aliases": aliases])
    }

    /// A customer RevenueCat tied no other id to lists `[]` and `false`: one only claimed, and one whose events named
    /// only the id it was claimed with (which `customer_aliases` holds, and which is its `customer_id`, no alias).
    @Test(arguments: StoreKind.allCases) func aCustomerWithNoOtherIDListsNone(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("only-claimed")
        try server.claimUser("paid-alone")
        #expect(
            try client.deliver(Self.purchase(user: "paid-alone", aliases: ["paid-alone"], transaction: "A1"))
                == "commission_created")
        for user in ["only-claimed", "paid-alone"] {
            let (ids, truncated) = try Self.aliases(client, of: user)
            #expect(ids == [], "\(user)")
            #expect(truncated == false, "\(user)")
        }
        let raw = try client.customerText("customer_id=paid-alone")
        #expect(raw.contains(#""aliases":[],"aliases_truncated":false"#), "\(raw)")
    }

    /// An event's `aliases` and a `TRANSFER`'s new ids show on the customer they were tied to, in byte order (upper
    /// case before lower, `$` first, a letter beyond ASCII last: not a locale's order), the customer's own id left
    /// out; and the customer found by one of them lists them all.
    @Test(arguments: StoreKind.allCases) func anEventsAliasesAndATransfersIDsAreListed(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("user_42")
        let named = ["user_42", "zeta", "Zeta", "$RCAnonymousID:0f1e2d", "alpha", "émile"]
        #expect(
            try client.deliver(Self.purchase(user: "user_42", aliases: named, transaction: "T1"))
                == "commission_created")
        let afterEvent = ["$RCAnonymousID:0f1e2d", "Zeta", "alpha", "zeta", "émile"]
        #expect(try Self.aliases(client, of: "user_42").ids == afterEvent)

        #expect(
            try client.deliver(RevenueCatPayload.transfer(from: ["user_42"], to: ["new-id", "Apple:7"]))
                == "transferred")
        let (ids, truncated) = try Self.aliases(client, of: "user_42")
        let all = ["$RCAnonymousID:0f1e2d", "Apple:7", "Zeta", "alpha", "new-id", "zeta", "émile"]
        #expect(ids == all)
        #expect(truncated == false)
        let found = try client.customers("customer_id=new-id")
        #expect(found.map { $0["customer_id"] as? String } == ["user_42"])
        #expect(found.first?["aliases"] as? [String] == all)
    }

    /// An id a newer event ties to another customer moves: it leaves the first customer's list for the second's.
    @Test(arguments: StoreKind.allCases) func aRepointedAliasMovesToTheOtherCustomer(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("a-user")
        try server.claimUser("b-user", code: "LEE")
        try client.deliver(Self.purchase(user: "a-user", aliases: ["a-user", "roaming", "a-phone"], transaction: "R1"))
        #expect(try Self.aliases(client, of: "a-user").ids == ["a-phone", "roaming"])
        #expect(try Self.aliases(client, of: "b-user").ids == [])

        #expect(
            try client.deliver(RevenueCatPayload.transfer(from: ["b-user"], to: ["roaming"])) == "transferred")
        #expect(try Self.aliases(client, of: "a-user").ids == ["a-phone"])
        #expect(try Self.aliases(client, of: "b-user").ids == ["roaming"])
        #expect(
            try client.customers("customer_id=roaming").map { $0["customer_id"] as? String } == ["b-user"])
    }

    /// A customer lists its first 100 tied ids in byte order: with exactly 100 besides its own id, all of them and
    /// `false`; with two more, the first 100 of the 102 and `true`.
    @Test(arguments: StoreKind.allCases) func moreThanAHundredIDsListTheFirstHundred(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("many")
        let hundred = (0..<100).map { "id-" + String(1000 + $0).dropFirst() }  // id-000 … id-099
        try client.deliver(Self.purchase(user: "many", aliases: ["many"] + hundred.reversed(), transaction: "M1"))
        var (ids, truncated) = try Self.aliases(client, of: "many")
        #expect(ids == hundred)
        #expect(truncated == false, "its own id is no alias")

        try client.deliver(Self.purchase(user: "many", aliases: ["many", "id-100", "0-first"], transaction: "M2"))
        (ids, truncated) = try Self.aliases(client, of: "many")
        #expect(ids == ["0-first"] + hundred.prefix(99))
        #expect(truncated == true)
        // A page of several customers reads each one's own ids.
        try server.claimUser("few")
        try client.deliver(Self.purchase(user: "few", aliases: ["few", "few-phone"], transaction: "F1"))
        #expect(try Self.aliases(client, of: "few").ids == ["few-phone"])
        #expect(try Self.aliases(client, of: "many").ids?.count == 100)
    }

    /// Another organization's ids never show: the same app user id claimed in both, each tied to other ids by its
    /// own organization's events, lists only its own organization's.
    @Test(arguments: StoreKind.allCases) func anotherOrganizationsAliasesNeverShow(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        try server.claimUser("shared-user")
        let other = try client.claim(ClaimBody.recent(user: "shared-user", code: "ZED", publicID: "pk_other"))
        #expect(other.status == 200, "\(other.text)")
        try client.deliver(
            Self.purchase(user: "shared-user", aliases: ["shared-user", "acme-phone"], transaction: "O1"))
        try client.deliver(
            Self.purchase(user: "shared-user", aliases: ["shared-user", "other-phone", "b-other"], transaction: "O1"),
            key: "pk_other")
        #expect(try Self.aliases(client, of: "shared-user").ids == ["acme-phone"])
        #expect(try Self.aliases(client, of: "shared-user", key: "sk_other_secret").ids == ["b-other", "other-phone"])
        #expect(try client.customers("customer_id=other-phone").isEmpty)
    }
}
