import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// Bugs found by attacking the webhook as RevenueCat (or someone holding its authorization) could: each test
/// fails until its bug is fixed.
@Suite struct WebhookAttackTests {
    /// `purchased_at_ms` is read as any Int64; at the ends of that range `Timestamp.adding(months:to:)` (the
    /// rule's `duration_months`) overflows and traps, killing the whole process (links included). Run as a
    /// child process so that the trap does not take the test runner with it.
    @Test func aPurchaseTimeAtTheEndOfInt64IsAnsweredAndTheServerKeepsServing() throws {
        let data = try StoreFixture(importing: TestServer.webhookConfig).temporaryDirectory
        defer { data.remove() }
        let server = try ChildServer(dataDirectory: data.path, outputIn: data.path, label: "overflow")
        defer { server.stop() }
        let client = server.client()
        for (user, time) in [("o1", Int64.max), ("o2", Int64.min)] {
            let response = try client.claim(ClaimBody.recent(user: user, code: "SAM20"))
            #expect(response.status == 200, "claim \(user): \(response.status) \(response.text)")
            let body = RevenueCatPayload.purchase(
                user: user, price: "9.99", transaction: "ovf-\(user)", ["purchased_at_ms": time])
            let answer = try? client.webhook(body)
            #expect(answer?.status == 200, "purchased_at_ms \(time): \(answer.map { "\($0.status)" } ?? "no answer")")
            let health = try? HTTPClient(port: server.port).request("GET", "/healthz")
            #expect(health?.status == 200, "the server died: \(server.child.stderr.prefix(300))")
            guard health?.status == 200 else { return }
        }
    }

    /// Ids were bound with `sqlite3_bind_text(…, -1, …)`, which stops at the first NUL, so two event ids that
    /// differ only after a `\u0000` were stored as one. An event id with a control character is now refused
    /// (no RevenueCat id has one), and the store binds text by its byte count (`SQLiteTextTests`).
    @Test func anEventIDWithANULIsRefusedAndNothingIsStored() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("nul1")
        let client = server.client()
        let first = RevenueCatPayload.purchase(user: "nul1", price: "5", transaction: "nul-a", id: "evt\u{0}A")
        #expect(try client.webhook(first).isError(400, "invalid_request"))
        let second = RevenueCatPayload.purchase(user: "nul1", price: "7", transaction: "nul-b", id: "evt")
        #expect(try client.deliver(second) == "commission_created", "a prefix of the refused id is another event")
        #expect(try client.commissions().count == 1)
    }

    /// The same truncation on transaction ids: the second purchase was answered `commission_created`, but its
    /// commission insert hit the first one's (truncated) transaction id and was dropped, and the first
    /// transaction's revenue was overwritten by the second's. Then such an id was read as absent (each purchase
    /// keyed by its event id, so paid again on a redelivery under another one). Now, as an event id with one, a
    /// transaction id with a control character is refused `400`, naming the field, and nothing is stored.
    @Test func transactionIDsWithANULAreRefusedAndNothingIsStored() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("nul2")
        let client = server.client()
        for body in [
            RevenueCatPayload.purchase(user: "nul2", price: "5", transaction: "tx\u{0}one"),
            RevenueCatPayload.purchase("RENEWAL", user: "nul2", price: "6", transaction: "tx\u{0}two"),
        ] {
            let response = try client.webhook(body)
            #expect(response.isError(400, "invalid_request"), "\(response.status) \(response.text.prefix(300))")
            #expect(response.message == "event.transaction_id holds a control character, which no id has")
        }
        #expect(try client.commissions().isEmpty)
        #expect(try WebhookTieReplayTests.events(client).isEmpty, "a refused event is not stored")
        #expect(try client.customer("nul2")["revenue_cents"] as? Int == 0)
    }

    /// A refund whose `app_user_id` does not (yet) lead to the purchasing customer (here: the TRANSFER that
    /// links them arrives after it) reverses the commission and takes the revenue off, but leaves the customer
    /// `paying`; delivered in order, the same events leave it `refunded`.
    @Test func aRefundBeforeItsTransferStillShowsTheCustomerRefunded() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("tr1")
        let client = server.client()
        let now = WallClock.milliseconds()
        try client.deliver(
            RevenueCatPayload.purchase(
                user: "tr1", price: "9.99", transaction: "tr-1", ["event_timestamp_ms": now, "purchased_at_ms": now]))
        let refund = RevenueCatPayload.refund(
            user: "anon-tr1", transaction: "tr-1",
            ["original_app_user_id": "anon-tr1", "aliases": ["anon-tr1"], "event_timestamp_ms": now + 2_000])
        #expect(try client.deliver(refund) == "refunded")
        let transfer = RevenueCatPayload.transfer(
            from: ["tr1"], to: ["anon-tr1"], ["event_timestamp_ms": now + 1_000])
        #expect(try client.deliver(transfer) == "transferred")
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
        let customer = try client.customer("tr1")
        #expect(customer["revenue_cents"] as? Int == 0)
        #expect(customer["status"] as? String == "refunded", "every paid purchase is refunded")
    }

    /// A claim takes an `app_user_id` of up to 256 characters and 1,024 UTF-8 bytes, the longest user id the
    /// webhook reads: the longest a claim accepts (256 four-byte emoji) is credited, and ids of at most 256
    /// characters but more bytes (256 👩‍💻 of 11 bytes; one letter with 600 combining accents), which a claim once
    /// accepted and no purchase could ever credit, are refused at the claim.
    @Test(arguments: StoreKind.allCases) func everyUserIDAClaimAcceptsIsOneTheWebhookAttributes(_ kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        let client = server.client()
        let longest = String(repeating: "\u{1F600}", count: 256)
        #expect(longest.utf8.count == ClaimRequest.maximumUserIDBytes)
        try server.claimUser(longest)
        let outcome = try client.deliver(
            RevenueCatPayload.purchase(user: longest, price: "9.99", transaction: "emoji-1"))
        #expect(outcome == "commission_created")

        let tooLong = [
            String(repeating: "\u{1F469}\u{200D}\u{1F4BB}", count: 256),
            "e" + String(repeating: "\u{0301}", count: 600),
            String(repeating: "\u{1F600}", count: 255) + "e\u{0301}\u{0301}",
        ]
        for user in tooLong {
            #expect(user.count <= ClaimRequest.maximumUserIDLength && user.utf8.count > 1024)
            let response = try client.claim(ClaimBody.recent(user: user, code: "SAM20"))
            #expect(response.isError(400, "invalid_request"), "\(user.utf8.count) bytes: \(response.text)")
            #expect(response.message.contains("app_user_id") && response.message.contains("1024 bytes"))
        }
        #expect(try client.customers().count == 1, "only the longest id that fits was claimed")
    }

    /// `duration_months: 12` pays nothing for a purchase made 13 months after the first paid purchase when the
    /// events arrive in order. When the later purchase arrives first it is the first paid purchase known and is
    /// paid; the earlier one, arriving next, is paid too: a commission, once created, is taken back only by a
    /// refund (README, "Commission rules"). The months count from the earliest purchase known at each event.
    @Test func aPurchasePastTheDurationPaysNothingWhenTheFirstPurchaseArrivedBeforeIt() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        let start: Int64 = 1_750_000_000_000
        let later = Timestamp.adding(months: 13, to: start)
        func purchase(_ user: String, _ type: String, _ transaction: String, at time: Int64) -> [UInt8] {
            RevenueCatPayload.purchase(
                type, user: user, price: "10", transaction: transaction,
                ["event_timestamp_ms": time, "purchased_at_ms": time])
        }
        try server.claimUser("dur-in", at: start - 60_000)
        try client.deliver(purchase("dur-in", "INITIAL_PURCHASE", "dur-in-0", at: start))
        #expect(try client.deliver(purchase("dur-in", "RENEWAL", "dur-in-13", at: later)) == "purchase_recorded")

        try server.claimUser("dur-out", at: start - 60_000)
        #expect(try client.deliver(purchase("dur-out", "RENEWAL", "dur-out-13", at: later)) == "commission_created")
        #expect(
            try client.deliver(purchase("dur-out", "INITIAL_PURCHASE", "dur-out-0", at: start)) == "commission_created")
        let paid = try client.commissions("customer_id=dur-out").compactMap { $0["transaction_id"] as? String }
        #expect(paid == ["dur-out-0", "dur-out-13"], "nothing already paid is taken back")
        // A renewal after both is past 12 months of the earliest purchase now known.
        let after = Timestamp.adding(months: 14, to: start)
        #expect(try client.deliver(purchase("dur-out", "RENEWAL", "dur-out-14", at: after)) == "purchase_recorded")
    }

    /// `subscriber_attributes` carry the app's own text, which a JavaScript, Java or Dart string can cut in the middle
    /// of an emoji: JSON writes the half left as `\ud83d`, which RFC 8259 allows. The strict parser the claims use
    /// refused the whole event (`400 unpaired surrogate`), so RevenueCat retried and dropped it, and that customer's
    /// purchases never paid. The webhook now reads such a half as U+FFFD and stores the body as posted.
    ///
    /// `GET /v1/webhook_events` lists the body with each such escape written `\ufffd`, as the webhook read it: the
    /// escape as posted made Foundation's JSON readers (and jq 1.6) refuse the whole page.
    @Test func aCutEmojiInTheAppsAttributesDoesNotCostThePurchase() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("cut1")
        let client = server.client()
        let names = [
            (#"Sam \ud83d"#, #"Sam \ufffd"#), (#"\ude00 Sam"#, #"\ufffd Sam"#), (#"\ud83d\u0041"#, #"\ufffd\u0041"#),
            (#"\udc00\ud800"#, #"\ufffd\ufffd"#), (#"\uD83D\uDE00 \\ud83d"#, #"\uD83D\uDE00 \\ud83d"#),
        ]
        for (index, (name, listed)) in names.enumerated() {
            let placeholder = "@@display-name@@"
            let template = RevenueCatPayload.purchase(
                index == 0 ? "INITIAL_PURCHASE" : "RENEWAL", user: "cut1", price: "10", transaction: "cut-\(index)",
                ["subscriber_attributes": ["$displayName": ["updated_at_ms": 1, "value": placeholder]]])
            let body = Array(
                String(decoding: template, as: UTF8.self).replacingOccurrences(of: placeholder, with: name).utf8)
            let response = try client.webhook(body)
            #expect(response.status == 200, "\(name): \(response.status) \(response.text)")
            let page = try client.request(
                "GET", "/v1/webhook_events?limit=1", headers: [("Authorization", "Bearer sk_acme_secret")])
            // Listed as posted but for the halves: the body is JSON, so it is embedded, not as a string of it.
            #expect(page.text.contains(#""value":""# + listed + #"""#), "\(name): \(page.text.prefix(300))")
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(page.text.utf8))) != nil, "\(name): a strict reader's")
            // Stored as posted.
            let stored = try server.store.webhookEvents(organizationID: "org_acme", limit: 1)
            #expect(stored.items.first?.body == body, "\(name)")
        }
        #expect(try client.commissions("customer_id=cut1").count == names.count)
    }

    /// The store finds a user by the bytes of its id; the event's ids were de-duplicated with Swift's `==`
    /// (canonical equivalence), so an `original_app_user_id` written with other code points than `app_user_id`
    /// (`é` as `e` and U+0301, the claimed spelling) was dropped before the store was asked: `unattributed`.
    @Test func anOriginalUserIDInAnotherSpellingStillFindsTheClaimedUser() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let claimed = "ren\u{65}\u{301}e"
        try server.claimUser(claimed)
        let client = server.client()
        let outcome = try client.deliver(
            RevenueCatPayload.purchase(
                user: "ren\u{E9}e", price: "10", transaction: "spelling-1",
                ["original_app_user_id": claimed, "aliases": ["ren\u{E9}e", claimed]]))
        #expect(outcome == "commission_created")
        #expect(try client.commissions("customer_id=spelling-nope").isEmpty)
        #expect(try client.commissions().filter { $0["transaction_id"] as? String == "spelling-1" }.count == 1)
    }

    /// A `TRANSFER` to an id written with other code points than the one it moves from (`é` as U+00E9, and as `e`
    /// with U+0301) left it out of the aliases (Swift's `contains` is canonical equivalence), so the new id's
    /// purchases were `unattributed`.
    @Test func aTransferToAnotherSpellingOfTheSameIDMovesIt() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("zo\u{EB}")
        let client = server.client()
        let transfer = RevenueCatPayload.transfer(from: ["zo\u{EB}"], to: ["zoe\u{308}"])
        #expect(try client.deliver(transfer) == "transferred")
        let purchase = RevenueCatPayload.purchase(user: "zoe\u{308}", price: "10", transaction: "spelling-2")
        #expect(try client.deliver(purchase) == "commission_created")
    }

    /// A `transaction_id` of 100 KB was read as absent: the purchase was `commission_created` with a commission keyed
    /// by its event id (so a redelivery under another event id paid again), and the refund carrying the same id was
    /// `ignored`. Now both are refused with `400`, naming the field and its limit, and nothing is stored, as for every
    /// other `400` (the body is parsed before anything is written); an alias that long is left out instead.
    @Test func aTransactionIDOver1024BytesIsRefusedAndNothingIsStored() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        try server.claimUser("long1")
        let client = server.client()
        let long = String(repeating: "9", count: 100_000)
        for body in [
            RevenueCatPayload.purchase(user: "long1", price: "9.99", transaction: long),
            RevenueCatPayload.purchase(
                "RENEWAL", user: "long1", price: "9.99", transaction: "long-renewal",
                ["original_transaction_id": long]),
            RevenueCatPayload.refund(user: "long1", transaction: long),
        ] {
            let response = try client.webhook(body)
            #expect(response.isError(400, "invalid_request"), "\(response.status) \(response.text.prefix(300))")
            let message = response.jsonObject?["message"] as? String ?? ""
            #expect(message.hasSuffix("transaction_id is longer than 1024 bytes, the longest id read (it has 100000)"))
        }
        let otherIDs: [[String: Any?]] = [["app_user_id": long], ["product_id": long]]
        for fields in otherIDs {
            let body = RevenueCatPayload.purchase(user: "long1", price: "9.99", transaction: "long-other", fields)
            #expect(try client.webhook(body).isError(400, "invalid_request"), "\(fields.keys)")
        }
        #expect(try client.commissions().isEmpty)
        #expect(try WebhookTieReplayTests.events(client).isEmpty, "a refused event is not stored")
        // An alias that long is left out, and the purchase paid: it would only tie an id no store could find.
        let aliased = RevenueCatPayload.purchase(
            user: "long1", price: "9.99", transaction: "long-alias", ["aliases": ["long1", long]])
        #expect(try client.webhook(aliased).status == 200)
        #expect(try client.commissions().count == 1)
    }

    /// A field read with another type than RevenueCat documents was read as absent and answered `200`: a purchase
    /// whose `transaction_id` was a number was `commission_created`, the same purchase again under another event id
    /// `commission_created` again (paid twice), and its refund `ignored`; a `price` of `"9.99"`, `true` or `[9.99]`
    /// was a `free_purchase` (nothing paid, never retried); an `app_user_id` of `5` left the event `unattributed`.
    /// Now each is `400 invalid_request` naming the field, and nothing is stored; `null` is still absent.
    @Test(arguments: StoreKind.allCases) func aFieldOfTheWrongTypeIsRefusedAndNothingIsStored(_ kind: StoreKind)
        throws
    {
        let server = try TestServer.webhooks(kind)
        defer { server.shutdown() }
        try server.claimUser("numtx")
        let client = server.client()
        let number = RevenueCatPayload.Raw("2000000123456789")
        let refused: [(body: [UInt8], field: String, type: String)] = [
            (
                RevenueCatPayload.purchase(
                    user: "numtx", price: "9.99", transaction: "x", ["transaction_id": number]),
                "transaction_id", "a number"
            ),
            (
                RevenueCatPayload.purchase(
                    user: "numtx", price: "9.99", transaction: "x",
                    ["transaction_id": number, "original_transaction_id": number]),
                "transaction_id", "a number"
            ),
            (
                RevenueCatPayload.refund(user: "numtx", transaction: "x", ["transaction_id": number]),
                "transaction_id", "a number"
            ),
            (
                RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "p1", ["price": "9.99"]),
                "price", "a string"
            ),
            (
                RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "p2", ["price": true]),
                "price", "a boolean"
            ),
            (
                RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "p3", ["price": [9.99]]),
                "price", "an array"
            ),
            (
                RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "u1", ["app_user_id": 5]),
                "app_user_id", "a number"
            ),
            (
                RevenueCatPayload.purchase(
                    user: "numtx", price: "9.99", transaction: "f1", ["is_family_share": "false"]),
                "is_family_share", "a string"
            ),
        ]
        for (body, field, type) in refused {
            let response = try client.webhook(body)
            #expect(response.isError(400, "invalid_request"), "\(field): \(response.status) \(response.text)")
            #expect(response.message.hasPrefix("event.\(field) must be a"), "\(response.message)")
            #expect(response.message.hasSuffix("or null, not \(type)"), "\(response.message)")
        }
        let alias = RevenueCatPayload.purchase(
            user: "numtx", price: "9.99", transaction: "a1", ["aliases": ["numtx", NSNull(), 7]])
        let aliasResponse = try client.webhook(alias)
        #expect(aliasResponse.isError(400, "invalid_request"))
        #expect(aliasResponse.message == "event.aliases[2] must be a string, not a number")
        #expect(try client.commissions().isEmpty)
        #expect(try WebhookTieReplayTests.events(client).isEmpty, "a refused event is not stored")
        #expect(try client.customer("numtx")["revenue_cents"] as? Int == 0)

        // The same purchase with its ids as strings pays once, and its refund takes it back; null is absent.
        let purchase = RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "2000000123456789")
        #expect(try client.deliver(purchase) == "commission_created")
        let again = RevenueCatPayload.purchase(user: "numtx", price: "9.99", transaction: "2000000123456789")
        #expect(try client.deliver(again) == "duplicate_transaction")
        #expect(
            try client.deliver(RevenueCatPayload.refund(user: "numtx", transaction: "2000000123456789")) == "refunded")
        let nulls = RevenueCatPayload.purchase(
            user: "numtx", price: "9.99", transaction: "n1",
            ["price": NSNull(), "transaction_id": NSNull(), "is_family_share": NSNull(), "aliases": NSNull()])
        #expect(try client.webhook(nulls).status == 200)
        #expect(try client.commissions().map { $0["status"] as? String } == ["reversed"])
    }

    /// Two `Authorization` lines are two credentials: neither is taken, whichever comes first.
    @Test func twoAuthorizationLinesAreRefused() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        let body = RevenueCatPayload.purchase(user: "nobody", price: "1", transaction: "auth-0")
        for pair in [
            [TestServer.authorization, "Bearer wrong"], ["Bearer wrong", TestServer.authorization],
            [TestServer.authorization, TestServer.authorization],
        ] {
            let response = try client.request(
                "POST", "/webhooks/revenuecat/pk_acme",
                headers: [("Content-Type", "application/json")] + pair.map { ("Authorization", $0) }, body: body)
            #expect(response.status == 401, "\(pair): \(response.text)")
            #expect(response.jsonObject?["error"] as? String == "unauthorized")
        }
        #expect(try client.webhook(body).status == 200, "one line is read as before")
        // The API's secret key, too.
        let list = try client.request(
            "GET", "/v1/commissions",
            headers: [("Authorization", "Bearer sk_acme_secret"), ("Authorization", "Bearer sk_acme_secret")])
        #expect(list.status == 401)
    }
}
