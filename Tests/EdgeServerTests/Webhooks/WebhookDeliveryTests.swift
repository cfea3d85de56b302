import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// How the webhook treats deliveries: the authorization, bad bodies, redeliveries and races, and event types
/// that pay nothing.
@Suite struct WebhookDeliveryTests {
    @Test func aMissingOrWrongAuthorizationIs401AndAnUnknownKeyIs404() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("a1")
        let client = server.client()
        let body = RevenueCatPayload.purchase(user: "a1", price: "9.99", transaction: "a-1")
        #expect(try client.webhook(body, authorization: nil).isError(401, "unauthorized"))
        #expect(try client.webhook(body, authorization: "Bearer rc_hook_0123456788").isError(401, "unauthorized"))
        #expect(try client.webhook(body, authorization: "bearer rc_hook_0123456789").isError(401, "unauthorized"))
        #expect(try client.webhook(body, authorization: "sk_acme_secret").isError(401, "unauthorized"))
        #expect(try client.webhook(body, key: "pk_nobody").isError(404, "unknown_public_key"))
        // org_other never set an authorization: nothing it is sent is accepted, and the answer says why.
        let other = try client.webhook(body, key: "pk_other", authorization: "Bearer rc_hook_0123456789")
        #expect(other.isError(401, "unauthorized") && other.message.contains("revenuecat"))
        #expect(other.message.hasPrefix("This organization has no RevenueCat authorization stored"), "\(other.message)")
        let wrong = try client.webhook(body, authorization: "Bearer rc_hook_0123456788")
        #expect(wrong.message.hasPrefix("The Authorization header is missing or is not"), "\(wrong.message)")
        #expect(try client.request("GET", "/webhooks/revenuecat/pk_acme").isError(405, "method_not_allowed"))
        #expect(try client.commissions().isEmpty, "nothing refused was applied")
        #expect(try client.deliver(body) == "commission_created")
    }

    /// A URL pasted into RevenueCat with a trailing slash was answered "No organization has the public key", which
    /// sent its user looking for a wrong key: one trailing slash is now the same URL, and a path with more after
    /// the key is `404 not_found` naming the form the webhook's URL takes.
    @Test func aTrailingSlashIsTheSameURLAndMoreAfterTheKeyIsNoSuchPath() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("slash1")
        let client = server.client()
        let body = RevenueCatPayload.purchase(user: "slash1", price: "9.99", transaction: "slash-1")
        #expect(try client.deliver(body, key: "pk_acme/") == "commission_created")
        #expect(try client.webhook(body, key: "pk_acme/", authorization: nil).isError(401, "unauthorized"))
        #expect(try client.webhook(body, key: "pk_nobody/").isError(404, "unknown_public_key"))
        for key in ["pk_acme/extra", "pk_acme//", "pk_acme/extra/", "/pk_acme", "pk_acme/x/y", "/", "//"] {
            let response = try client.webhook(body, key: key)
            #expect(response.isError(404, "not_found"), "\(key): \(response.status) \(response.text)")
            #expect(
                response.message == "No such path: the webhook's URL is /webhooks/revenuecat/<public_key>",
                "\(key): \(response.message)")
        }
        #expect(try client.commissions().count == 1, "one purchase, delivered once")
    }

    @Test func aBodyThatIsNotAnEventIs400AndChangesNothing() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        let bodies = [
            "", "not json", "[]", "{}", #"{"event":{"id":"e","type":"TEST"}}"#, #"{"api_version":"1.0"}"#,
            #"{"api_version":"1.0","event":[]}"#, #"{"api_version":"1.0","event":{"type":"TEST"}}"#,
            #"{"api_version":"1.0","event":{"id":"e1"}}"#, #"{"api_version":"1.0","event":{"id":"","type":"TEST"}}"#,
            #"{"api_version":"1.0","event":{"id":7,"type":"TEST"}}"#,
            #"{"api_version":"1.0","event":{"id":"e1","type":"TEST"}"#,
        ]
        for body in bodies {
            let response = try client.webhook(Array(body.utf8))
            #expect(response.isError(400, "invalid_request"), "\(body): \(response.status) \(response.text)")
        }
        #expect(try Self.storedEvents(server).isEmpty)
    }

    /// A member named twice was read as its last value while the body was stored as posted, so a reader of the
    /// stored body taking the first (and `/client/claims` refuses the same) saw another price, user or event. It
    /// is refused like a claim's, at any depth, and nothing is stored.
    @Test(arguments: StoreKind.allCases) func aMemberNamedTwiceIs400AndNothingIsStored(kind: StoreKind) throws {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("m1")
        let client = server.client()
        let clean = String(
            decoding: RevenueCatPayload.purchase(user: "m1", price: "9.99", transaction: "m-1", id: "evt-m1"),
            as: UTF8.self)
        func with(_ members: String) -> String {
            clean.replacingOccurrences(of: #""event":{"#, with: #""event":{"# + members + ",")
        }
        let cases: [(body: String, path: String)] = [
            (with(#""price":999.99"#), "event.price"),
            (with(#""app\u005fuser_id":"someone_else""#), "event.app_user_id"),
            (with(#""transaction_id":"m-2""#), "event.transaction_id"),
            (with(#""id":"evt-other""#), "event.id"),
            (with(#""experiments":[{"id":"a","id":"b"}]"#), "event.experiments[0].id"),
            (#"{"api_version":"1.0","api_version":"2.0","event":{"id":"e1","type":"TEST"}}"#, "api_version"),
            (#"{"api_version":"1.0","event":{"id":"e1","type":"TEST"},"event":{"id":"e2","type":"TEST"}}"#, "event"),
        ]
        for (body, path) in cases {
            let response = try client.webhook(Array(body.utf8))
            #expect(response.isError(400, "invalid_request"), "\(path): \(response.status) \(response.text)")
            #expect(response.message == "The body names \(path) more than once", "\(response.message)")
        }
        #expect(try Self.storedEvents(server).isEmpty)
        #expect(try client.commissions().isEmpty)
        #expect(try client.deliver(Array(clean.utf8)) == "commission_created", "the body without a repeat is fine")
        #expect(try Self.storedEvents(server).map(\.body) == [clean], "stored as posted")
    }

    @Test func aTwoMebibyteBodyIsAJSON413() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        var body = RevenueCatPayload.make("TEST")
        body.removeLast()
        body += Array(#","padding":""#.utf8) + [UInt8](repeating: 0x61, count: 2 << 20) + Array(#""}"#.utf8)
        let head =
            "POST /webhooks/revenuecat/pk_acme HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Authorization: \(TestServer.authorization)\r\nContent-Length: \(body.count)\r\n\r\n"
        // The server may stop reading the body and answer before it is all written: RefusableUpload reads the
        // answer all the same.
        let response = try RefusableUpload.send([Array(head.utf8), body], port: server.port).response
        #expect(response.isError(413, "payload_too_large"), "\(response.status) \(response.text.prefix(200))")
        #expect(try server.client().deliver(RevenueCatPayload.make("TEST")) == "ignored", "still serving")
    }

    @Test func aRedeliveryIsStoredOnceAndAnsweredDuplicate() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("d1")
        let client = server.client()
        let body = RevenueCatPayload.purchase(user: "d1", price: "9.99", transaction: "d-1", id: "evt-redelivered")
        let first = try client.webhook(body)
        let second = try client.webhook(body)
        #expect(first.status == 200 && second.status == 200)
        #expect((first.jsonObject?["data"] as? [String: Any])?["status"] as? String == "stored")
        let data = second.jsonObject?["data"] as? [String: Any]
        #expect(data?["status"] as? String == "duplicate" && data?["outcome"] as? String == "duplicate")
        #expect(data?["event_id"] as? String == "evt-redelivered")
        #expect(try client.commissions().count == 1)
        // The same purchase under another event id pays once too: one commission per transaction.
        let again = RevenueCatPayload.purchase(user: "d1", price: "9.99", transaction: "d-1")
        #expect(try client.deliver(again) == "duplicate_transaction")
        #expect(try client.commissions().count == 1)
        let events = try Self.storedEvents(server)
        #expect(events.count == 2)
        #expect(events.first { $0.eventID == "evt-redelivered" }?.body == String(decoding: body, as: UTF8.self))
    }

    @Test func racingDeliveriesOfOneEventStoreItOnce() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("race")
        let port = server.port
        let body = RevenueCatPayload.purchase(user: "race", price: "9.99", transaction: "race-1", id: "evt-race")
        let results = ClaimConcurrencyTests.race(16) { _ in
            let response = try HTTPClient(port: port).webhook(body)
            return (response.status, (response.jsonObject?["data"] as? [String: Any])?["status"] as? String ?? "")
        }
        let answers = try results.map { try $0.get() }
        #expect(answers.allSatisfy { $0.0 == 200 }, "\(answers)")
        #expect(answers.filter { $0.1 == "stored" }.count == 1, "\(answers)")
        #expect(answers.filter { $0.1 == "duplicate" }.count == 15, "\(answers)")
        #expect(try server.client().commissions().count == 1)
        #expect(try Self.storedEvents(server).count == 1)
    }

    @Test func typesThatPayNothingAreStoredAndAnswered200() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("t1")
        let client = server.client()
        try client.deliver(RevenueCatPayload.purchase(user: "t1", price: "9.99", transaction: "t-1"))
        let types = [
            "TEST", "BILLING_ISSUE", "SUBSCRIPTION_PAUSED", "SUBSCRIPTION_EXTENDED", "PRODUCT_CHANGE",
            "TEMPORARY_ENTITLEMENT_GRANT", "INVOICE_ISSUANCE", "VIRTUAL_CURRENCY_TRANSACTION", "A_TYPE_FROM_2030",
        ]
        for type in types {
            let body = RevenueCatPayload.purchase(type, user: "t1", price: "9.99", transaction: "t-\(type)")
            #expect(try client.deliver(body) == "ignored", "\(type)")
        }
        // Sandbox versions of paying types, and events of users nobody claimed, are stored too.
        let sandbox = RevenueCatPayload.purchase(
            "RENEWAL", user: "t1", price: "9.99", transaction: "t-s", ["environment": "SANDBOX"])
        #expect(try client.deliver(sandbox) == "sandbox")
        #expect(try client.commissions().count == 1)
        #expect(try client.customer("t1")["status"] as? String == "paying")
        #expect(try Self.storedEvents(server).count == types.count + 2)
        let stored = try Self.storedEvents(server).first { $0.type == "A_TYPE_FROM_2030" }
        #expect(stored?.outcome == "ignored" && stored?.customer?.hasPrefix("cust_") == true)
    }

    /// The webhook events the server stored, through a connection of the test's own.
    static func storedEvents(_ server: TestServer) throws -> [(
        eventID: String, type: String, outcome: String,
        customer: String?, body: String
    )] {
        try server.store.webhookEvents(organizationID: "org_acme", limit: 100).items.map {
            ($0.eventID, $0.type, $0.outcome, $0.customer, String(decoding: $0.body, as: UTF8.self))
        }
    }
}
