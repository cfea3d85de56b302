import Foundation
import TestSupport
import Testing

@testable import LinkCore

/// `RevenueCatEvent(body:)`: a strict envelope (`api_version`, an `event` object with string `id` and `type`), the
/// fields read of their documented type (or null), the others not looked at, over the sample bodies in
/// `Tests/Fixtures/revenuecat/` and hand-written edge cases.
@Suite struct RevenueCatEventTests {
    /// The webhook body of `Tests/Fixtures/revenuecat/<name>.json`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let path = try TestFiles.fixture("revenuecat/\(name).json")
        guard let data = FileManager.default.contents(atPath: path) else { throw TestError("cannot read \(path)") }
        return [UInt8](data)
    }

    static func parse(_ body: String) throws(RevenueCatEventError) -> RevenueCatEvent {
        try RevenueCatEvent(body: Array(body.utf8))
    }

    /// `{"api_version":"1.0","event":{"id":"e1","type":"RENEWAL",<fields>}}`.
    static func parse(fields: String) throws -> RevenueCatEvent {
        try parse(#"{"api_version":"1.0","event":{"id":"e1","type":"RENEWAL"\#(fields.isEmpty ? "" : ",")\#(fields)}}"#)
    }

    static let anonymousID = "$RCAnonymousID:5d0c0e2a9b8f4c7e8a1f3b6d2c4e9a70"

    static let fixtureNames = [
        "initial_purchase", "renewal", "cancellation_refund", "cancellation_unsubscribe", "refund_reversed",
        "transfer", "expiration", "uncancellation", "non_renewing_purchase", "test", "sandbox_initial_purchase",
        "trial_initial_purchase", "billing_issue",
    ]

    // MARK: - The sample bodies

    @Test(arguments: fixtureNames)
    func everySampleParses(name: String) throws {
        let event = try RevenueCatEvent(body: Self.fixture(name))
        #expect(!event.id.isEmpty)
        #expect(!event.type.isEmpty)
        #expect(event.timestamp != nil)
        #expect(event.environment == (name.hasPrefix("sandbox") ? "SANDBOX" : "PRODUCTION"))
    }

    @Test func initialPurchase() throws {
        let event = try RevenueCatEvent(body: Self.fixture("initial_purchase"))
        var expected = RevenueCatEvent(id: "6f1d2c3b-8a47-4e0f-9b51-1c2d3e4f5a60", type: "INITIAL_PURCHASE")
        expected.environment = "PRODUCTION"
        expected.appUserID = "user_8412"
        expected.originalAppUserID = Self.anonymousID
        expected.aliases = [Self.anonymousID, "user_8412"]
        expected.transactionID = "2000000912345678"
        expected.originalTransactionID = "2000000912345678"
        expected.store = "APP_STORE"
        expected.productID = "com.toltapp.pro.monthly"
        expected.periodType = "NORMAL"
        expected.price = USDAmount(micros: 4_990_000)
        expected.purchasedAt = 1_772_442_900_000
        expected.timestamp = 1_772_442_904_000
        #expect(event == expected)
        #expect(event.isProduction)
        #expect(!event.isRefund)
        #expect(event.price?.cents == 499)
        #expect(event.customerLookupIDs == ["user_8412", Self.anonymousID])
    }

    @Test func renewal() throws {
        let event = try RevenueCatEvent(body: Self.fixture("renewal"))
        #expect(event.type == "RENEWAL")
        #expect(event.transactionID == "2000000923456789")
        #expect(event.originalTransactionID == "2000000912345678")
        #expect(event.price?.cents == 499)
        #expect(event.purchasedAt == 1_775_121_300_000)
        #expect(event.timestamp == 1_775_121_303_000)
        #expect(!event.isRefund)
    }

    @Test func refundIsACustomerSupportCancellationWithANegativePrice() throws {
        let event = try RevenueCatEvent(body: Self.fixture("cancellation_refund"))
        #expect(event.type == "CANCELLATION")
        #expect(event.cancelReason == "CUSTOMER_SUPPORT")
        #expect(event.price == USDAmount(micros: -4_990_000))
        #expect(event.price?.cents == -499)
        #expect(event.transactionID == "2000000912345678")
        #expect(event.timestamp == 1_773_995_400_000)
        #expect(event.isRefund)
    }

    @Test func unsubscribeIsNotARefund() throws {
        let event = try RevenueCatEvent(body: Self.fixture("cancellation_unsubscribe"))
        #expect(event.type == "CANCELLATION")
        #expect(event.cancelReason == "UNSUBSCRIBE")
        #expect(event.price?.cents == 499)
        #expect(!event.isRefund)
    }

    @Test func refundReversed() throws {
        let event = try RevenueCatEvent(body: Self.fixture("refund_reversed"))
        #expect(event.type == "REFUND_REVERSED")
        #expect(event.transactionID == "2000000912345678")
        #expect(event.timestamp == 1_774_081_800_000)
        #expect(!event.isRefund)
    }

    @Test func transferHasNoAppUserIDAndLooksUpItsOldIDs() throws {
        let event = try RevenueCatEvent(body: Self.fixture("transfer"))
        #expect(event.type == "TRANSFER")
        #expect(event.appUserID == nil)
        #expect(event.aliases.isEmpty)
        #expect(event.transferredFrom == [Self.anonymousID, "user_8412"])
        #expect(event.transferredTo == ["$RCAnonymousID:e1f2a3b4c5d64e7f8a9b0c1d2e3f4a5b", "user_9021"])
        #expect(event.customerLookupIDs == event.transferredFrom)
        #expect(event.timestamp == 1_775_829_600_000)
    }

    @Test func expirationAndUncancellation() throws {
        let expiration = try RevenueCatEvent(body: Self.fixture("expiration"))
        #expect(expiration.type == "EXPIRATION")
        #expect(expiration.timestamp == 1_777_713_302_000)
        #expect(!expiration.isRefund)
        let uncancellation = try RevenueCatEvent(body: Self.fixture("uncancellation"))
        #expect(uncancellation.type == "UNCANCELLATION")
        #expect(uncancellation.timestamp == 1_772_783_100_000)
    }

    @Test func nonRenewingPurchaseReadsTheUSDPriceNotThePurchasedCurrency() throws {
        let event = try RevenueCatEvent(body: Self.fixture("non_renewing_purchase"))
        #expect(event.type == "NON_RENEWING_PURCHASE")
        #expect(event.price?.cents == 4_999)
        #expect(event.transactionID == "GPA.3312-4455-6677-88990")
        #expect(event.productID == "com.toltapp.lifetime")
    }

    @Test func trialIsFree() throws {
        let event = try RevenueCatEvent(body: Self.fixture("trial_initial_purchase"))
        #expect(event.type == "INITIAL_PURCHASE")
        #expect(event.periodType == "TRIAL")
        #expect(event.price == USDAmount(micros: 0))
        #expect(!event.isRefund)
    }

    @Test func sandbox() throws {
        let event = try RevenueCatEvent(body: Self.fixture("sandbox_initial_purchase"))
        #expect(event.environment == "SANDBOX")
        #expect(!event.isProduction)
        #expect(event.price?.cents == 499)
    }

    @Test func testEventWithItsNulls() throws {
        let event = try RevenueCatEvent(body: Self.fixture("test"))
        #expect(event.type == "TEST")
        #expect(event.transactionID == nil)
        #expect(event.price == nil)
        #expect(event.customerLookupIDs == ["test_user_3c9f"])
    }

    @Test func billingIssue() throws {
        let event = try RevenueCatEvent(body: Self.fixture("billing_issue"))
        #expect(event.type == "BILLING_ISSUE")
        #expect(event.price?.cents == 0)
        #expect(!event.isRefund)
    }

    // MARK: - The envelope

    @Test func theSmallestBody() throws {
        let event = try Self.parse(#"{"api_version":"1.0","event":{"id":"e1","type":"TEST"}}"#)
        #expect(event == RevenueCatEvent(id: "e1", type: "TEST"))
        #expect(event.customerLookupIDs.isEmpty)
        #expect(!event.isProduction)
    }

    @Test(arguments: [
        #"{"api_version":1,"event":{"id":"e1","type":"TEST"}}"#,
        #"{"api_version":"2.0","event":{"id":"e1","type":"TEST"}}"#,
        #"{"event":{"id":"e1","type":"TEST"},"api_version":"1.0"}"#,
        #"{"api_version":"1.0","event":{"type":"TEST","id":"e1"},"extra":[1,2,3]}"#,
        " \n{\"api_version\":\"1.0\",\"event\":{\"id\":\"e1\",\"type\":\"TEST\"}}\n",
    ])
    func acceptsAnyAPIVersionAndFieldOrder(body: String) throws {
        let event = try Self.parse(body)
        #expect(event.id == "e1")
        #expect(event.type == "TEST")
    }

    @Test(arguments: [
        ("", "not valid JSON"), ("not json", "not valid JSON"), ("{", "not valid JSON"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":"TEST"}"#, "not valid JSON"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":"TEST"}} x"#, "not valid JSON"),
        (#"[{"api_version":"1.0","event":{"id":"e1","type":"TEST"}}]"#, "JSON object"),
        (#""event""#, "JSON object"), ("null", "JSON object"), ("42", "JSON object"),
        (#"{"event":{"id":"e1","type":"TEST"}}"#, "api_version"),
        (#"{"api_version":null,"event":{"id":"e1","type":"TEST"}}"#, "api_version"),
        (#"{"api_version":"1.0"}"#, "event must be an object"),
        (#"{"api_version":"1.0","event":null}"#, "event must be an object"),
        (#"{"api_version":"1.0","event":[]}"#, "event must be an object"),
        (#"{"api_version":"1.0","event":"INITIAL_PURCHASE"}"#, "event must be an object"),
        (#"{"api_version":"1.0","id":"e1","type":"TEST"}"#, "event must be an object"),
        (#"{"api_version":"1.0","event":{"type":"TEST"}}"#, "event.id"),
        (#"{"api_version":"1.0","event":{"id":null,"type":"TEST"}}"#, "event.id"),
        (#"{"api_version":"1.0","event":{"id":42,"type":"TEST"}}"#, "event.id"),
        (#"{"api_version":"1.0","event":{"id":["e1"],"type":"TEST"}}"#, "event.id"),
        (#"{"api_version":"1.0","event":{"id":"","type":"TEST"}}"#, "event.id"),
        (#"{"api_version":"1.0","event":{"id":"e1"}}"#, "event.type"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":null}}"#, "event.type"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":7}}"#, "event.type"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":""}}"#, "event.type"),
    ])
    func refusesABrokenEnvelope(body: String, message: String) {
        let error = #expect(throws: RevenueCatEventError.self) { try Self.parse(body) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
    }

    /// As `/client/claims` does: a repeated member is refused, not read as its last value, at any depth.
    @Test(arguments: [
        (#"{"api_version":"1.0","api_version":"1.0","event":{"id":"e1","type":"TEST"}}"#, "api_version"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":"TEST"},"event":{"id":"e2","type":"TEST"}}"#, "event"),
        (#"{"api_version":"1.0","event":{"id":"e1","type":"RENEWAL","price":9.99,"price":0.01}}"#, "event.price"),
        (#"{"api_version":"1.0","event":{"id":"e1","id":"e2","type":"TEST"}}"#, "event.id"),
        (
            #"{"api_version":"1.0","event":{"id":"e1","type":"TEST","app_user_id":"a","app\u005fuser_id":"b"}}"#,
            "event.app_user_id"
        ),
        (
            #"{"api_version":"1.0","event":{"id":"e1","type":"TEST","subscriber_attributes":{"$email":{"value":"a","value":"b"}}}}"#,
            "event.subscriber_attributes.$email.value"
        ),
        (
            #"{"api_version":"1.0","event":{"id":"e1","type":"TEST","experiments":[{},{"id":1,"id":2}]}}"#,
            "event.experiments[1].id"
        ),
    ])
    func refusesAMemberNamedTwice(body: String, path: String) {
        let error = #expect(throws: RevenueCatEventError.self) { try Self.parse(body) }
        #expect(error?.message == "The body names \(path) more than once")
    }

    @Test func aLongRepeatedNameIsNotEchoed() {
        let name = String(repeating: "n", count: 200)
        let error = #expect(throws: RevenueCatEventError.self) {
            try Self.parse(#"{"api_version":"1.0","event":{"id":"e1","type":"TEST","\#(name)":1,"\#(name)":2}}"#)
        }
        #expect(error?.message == "The body names a member more than once")
    }

    @Test func idAndTypeHaveALengthLimit() throws {
        let longest = String(repeating: "a", count: RevenueCatEvent.maximumIDLength)
        #expect(try Self.parse(#"{"api_version":"1","event":{"id":"\#(longest)","type":"TEST"}}"#).id == longest)
        #expect(throws: RevenueCatEventError.self) {
            try Self.parse(#"{"api_version":"1","event":{"id":"\#(longest)a","type":"TEST"}}"#)
        }
        let longType = String(repeating: "T", count: 64)
        #expect(try Self.parse(#"{"api_version":"1","event":{"id":"e","type":"\#(longType)"}}"#).type == longType)
        #expect(throws: RevenueCatEventError.self) {
            try Self.parse(#"{"api_version":"1","event":{"id":"e","type":"\#(longType)T"}}"#)
        }
    }

    @Test func anUnknownTypeIsKept() throws {
        let parsed = try Self.parse(#"{"api_version":"1.0","event":{"id":"e1","type":"SOMETHING_NEW","price":1}}"#)
        #expect(parsed.type == "SOMETHING_NEW")
        #expect(parsed.price?.cents == 100)
    }

    @Test func theErrorDescribesItself() {
        let error = #expect(throws: RevenueCatEventError.self) { try Self.parse(#"{"api_version":"1.0"}"#) }
        #expect(error.map { "\($0)" } == error?.message)
    }

    // MARK: - The fields read

    /// A field read with another type than RevenueCat documents was read as absent: a numeric `transaction_id`
    /// paid again on a redelivery under another event id and left its refund `ignored`, a string `price` was a
    /// `free_purchase`, both answered `200` and so never retried. Now the event is refused, naming the field and
    /// the type it has (not its value).
    @Test(arguments: [
        (#""environment":1"#, "event.environment must be a string or null, not a number"),
        (#""app_user_id":42"#, "event.app_user_id must be a string or null, not a number"),
        (#""original_app_user_id":["u"]"#, "event.original_app_user_id must be a string or null, not an array"),
        (#""aliases":"u""#, "event.aliases must be an array of strings or null, not a string"),
        (#""aliases":["a",null,5]"#, "event.aliases[2] must be a string, not a number"),
        (#""transferred_from":{}"#, "event.transferred_from must be an array of strings or null, not an object"),
        (#""transferred_to":[["u"]]"#, "event.transferred_to[0] must be a string, not an array"),
        (#""transaction_id":2000000123456789"#, "event.transaction_id must be a string or null, not a number"),
        (#""original_transaction_id":true"#, "event.original_transaction_id must be a string or null, not a boolean"),
        (#""product_id":{"id":"p"}"#, "event.product_id must be a string or null, not an object"),
        (#""period_type":0"#, "event.period_type must be a string or null, not a number"),
        (#""cancel_reason":[]"#, "event.cancel_reason must be a string or null, not an array"),
        (#""price":"4.99""#, "event.price must be a number or null, not a string"),
        (#""price":true"#, "event.price must be a number or null, not a boolean"),
        (#""price":[9.99]"#, "event.price must be a number or null, not an array"),
        (#""purchased_at_ms":"1772442900000""#, "event.purchased_at_ms must be a number or null, not a string"),
        (#""event_timestamp_ms":{"ms":1}"#, "event.event_timestamp_ms must be a number or null, not an object"),
        (#""is_family_share":"true""#, "event.is_family_share must be a boolean or null, not a string"),
        (#""is_family_share":1"#, "event.is_family_share must be a boolean or null, not a number"),
        (#""store":["STRIPE"]"#, "event.store must be a string or null, not an array"),
        (#""store":"STRIPE","renewal_number":"2""#, "event.renewal_number must be a number or null, not a string"),
    ])
    func aFieldOfTheWrongTypeIsRefused(field: String, message: String) {
        let error = #expect(throws: RevenueCatEventError.self) { try Self.parse(fields: field) }
        #expect(error?.message == message, "\(error?.message ?? "no error")")
    }

    /// Stripe's `transaction_id` repeats for every period of a subscription (RevenueCat's exports: unique "for most
    /// stores, but for Stripe it is not"), so its periods are told apart by `renewal_number`, and a renewal's
    /// original transaction is the first period; another store's ids are kept as sent, and so is a Stripe event's
    /// without a period.
    @Test func stripeTransactionsAreKeyedByPeriod() throws {
        let renewal = try Self.parse(
            fields: #""store":"STRIPE","renewal_number":3,"transaction_id":"sub_1","original_transaction_id":"sub_1""#)
        #expect(renewal.transactionID == "sub_1#3")
        #expect(renewal.originalTransactionID == "sub_1#1")
        #expect(renewal.renewalNumber == 3)
        let first = try Self.parse(
            fields: #""store":"STRIPE","renewal_number":1,"transaction_id":"sub_1","original_transaction_id":"sub_1""#)
        #expect(first.transactionID == "sub_1#1" && first.originalTransactionID == "sub_1#1")
        for fields in [
            #""store":"APP_STORE","renewal_number":3,"transaction_id":"2001","original_transaction_id":"1001""#,
            #""store":"STRIPE","transaction_id":"2001","original_transaction_id":"1001""#,
            #""store":"STRIPE","renewal_number":null,"transaction_id":"2001","original_transaction_id":"1001""#,
        ] {
            let event = try Self.parse(fields: fields)
            #expect(event.transactionID == "2001" && event.originalTransactionID == "1001", "\(fields)")
        }
        // The ids as sent stay known for a Stripe event, whose store may hold them bare, and for no other.
        #expect(renewal.unkeyedTransactionID == "sub_1" && renewal.unkeyedOriginalTransactionID == "sub_1")
        let apple = try Self.parse(
            fields: #""store":"APP_STORE","renewal_number":3,"transaction_id":"2001","original_transaction_id":"1001""#)
        #expect(apple.unkeyedTransactionID == nil && apple.unkeyedOriginalTransactionID == nil)
    }

    /// `renewal_number` is an integer that starts at 1 (RevenueCat's documentation): any spelling of one is read,
    /// and in a Stripe event any other number refuses the event, naming the field, as a field of the wrong type does
    /// (read as absent, `0` keyed a Stripe period by the bare id and paid it a second time). Another store's purchase
    /// does not depend on it: there such a value is not read, and the event is taken.
    @Test(
        arguments: [
            ("1", 1), ("1e3", 1000), ("2.0", 2), ("2.000", 2), ("1E+1", 10), ("10000e-1", 1000), ("0.5e1", 5),
            ("0.05e2", 5), ("2147483647", 2_147_483_647), ("2.147483647e9", 2_147_483_647),
        ] as [(String, Int64)])
    func renewalNumbersAreIntegersHoweverWritten(text: String, value: Int64) throws {
        let event = try Self.parse(fields: #""store":"STRIPE","transaction_id":"sub_1","renewal_number":\#(text)"#)
        #expect(event.renewalNumber == value)
        #expect(event.transactionID == "sub_1#\(value)")
    }

    @Test(arguments: [
        "0", "-0", "-1", "0.0", "2.5", "1e-1", "1.0000000000000001", "2147483648", "1e10", "9223372036854775808",
        "1e999999999999999999999", "1e-999999999999999999999", "-2147483647",
    ])
    func otherRenewalNumbersAreRefusedInAStripeEvent(text: String) throws {
        let error = #expect(throws: RevenueCatEventError.self) {
            try Self.parse(fields: #""store":"STRIPE","transaction_id":"sub_1","renewal_number":\#(text)"#)
        }
        #expect(
            error?.message
                == "event.renewal_number must be a whole number from 1 to 2147483647 (the subscription's period, 1 "
                + "for its first), not \(text)")
        let apple = try Self.parse(fields: #""store":"APP_STORE","transaction_id":"2001","renewal_number":\#(text)"#)
        #expect(apple.renewalNumber == nil && apple.transactionID == "2001")
    }

    /// A number too long to quote is described by its length: the message stays short.
    @Test func aLongRenewalNumberIsNotQuoted() {
        let text = "1." + String(repeating: "5", count: 100)
        let error = #expect(throws: RevenueCatEventError.self) {
            try Self.parse(fields: #""store":"STRIPE","renewal_number":\#(text)"#)
        }
        #expect(error?.message.hasSuffix("not a number of 102 characters") == true, "\(error?.message ?? "")")
    }

    /// Fields not read are not looked at, whatever their type: RevenueCat may change or add them.
    @Test func fieldsNotReadMayHaveAnyType() throws {
        let event = try Self.parse(
            fields: """
                "price_in_purchased_currency":"4.99","takehome_percentage":"x","currency":7,"offer_code":[],
                "expiration_at_ms":"soon","entitlement_ids":"pro","country_code":{},"price":4.99
                """)
        #expect(event.price?.cents == 499)
    }

    @Test func nullsAreAbsentFields() throws {
        let event = try Self.parse(
            fields: """
                "environment":null,"app_user_id":null,"original_app_user_id":null,"aliases":null,
                "transaction_id":null,"product_id":null,"period_type":null,"cancel_reason":null,"price":null,
                "purchased_at_ms":null,"event_timestamp_ms":null
                """)
        // But for the price: RevenueCat's "NULL if the price is unknown", which is not an absent price.
        var expected = RevenueCatEvent(id: "e1", type: "RENEWAL")
        expected.priceIsUnknown = true
        #expect(event == expected)
        #expect(try !Self.parse(fields: #""product_id":"p""#).priceIsUnknown)
    }

    @Test func emptyStringsAreAbsentFields() throws {
        let event = try Self.parse(
            fields:
                #""environment":"","app_user_id":"","original_app_user_id":"","aliases":["",""],"transaction_id":"""#)
        #expect(event == RevenueCatEvent(id: "e1", type: "RENEWAL"))
    }

    @Test func idsAtTheLimitAreRead() throws {
        let longest = String(repeating: "u", count: RevenueCatEvent.maximumIDLength)
        let event = try Self.parse(
            fields: #""app_user_id":"\#(longest)","transaction_id":"\#(longest)","aliases":["\#(longest)","a"]"#)
        #expect(event.appUserID == longest)
        #expect(event.transactionID == longest)
        #expect(event.aliases == [longest, "a"])
    }

    /// An id over the limit was read as absent: a purchase's `transaction_id` so went unread (its commission keyed
    /// by the event id, paid again on a redelivery under another id, its refund `ignored`). Now the event is refused,
    /// naming the field and the limit.
    @Test(arguments: [
        ("app_user_id", "event.app_user_id"), ("original_app_user_id", "event.original_app_user_id"),
        ("transaction_id", "event.transaction_id"), ("original_transaction_id", "event.original_transaction_id"),
        ("product_id", "event.product_id"),
    ])
    func anIDOverTheLimitIsRefused(name: String, field: String) {
        let long = String(repeating: "t", count: 100_000)
        let error = #expect(throws: RevenueCatEventError.self) { try Self.parse(fields: #""\#(name)":"\#(long)""#) }
        #expect(
            error?.message == "\(field) is longer than 1024 bytes, the longest id read (it has 100000)",
            "\(error?.message ?? "")")
    }

    /// An id with a control character was read as absent, with the same outcome as one over the limit. Now it is
    /// refused, naming the field; in a list it is skipped (below), as a long one is.
    @Test(arguments: [
        ("app_user_id", "event.app_user_id"), ("original_app_user_id", "event.original_app_user_id"),
        ("transaction_id", "event.transaction_id"), ("original_transaction_id", "event.original_transaction_id"),
        ("product_id", "event.product_id"),
    ])
    func anIDWithAControlCharacterIsRefused(name: String, field: String) throws {
        for value in [#"tx\u0000one"#, #"tx\none"#, #"\u007f"#, #"a\u001fb"#] {
            let error = #expect(throws: RevenueCatEventError.self) {
                try Self.parse(fields: #""\#(name)":"\#(value)""#)
            }
            #expect(error?.message == "\(field) holds a control character, which no id has", "\(value)")
        }
        let list = try Self.parse(fields: #""aliases":["a","b\u0000c","d"]"#)
        #expect(list.aliases == ["a", "d"])
    }

    @Test(arguments: ["aliases", "transferred_from", "transferred_to"])
    func anIDOverTheLimitInAListIsSkippedAndTheEventRead(name: String) throws {
        let long = String(repeating: "\u{E9}", count: 513)
        let event = try Self.parse(fields: #""\#(name)":["a",null,"\#(long)","b"]"#)
        let read = [
            "aliases": event.aliases, "transferred_from": event.transferredFrom, "transferred_to": event.transferredTo,
        ]
        #expect(read[name] == ["a", "b"], "the long one (1,026 bytes) left out, the event not refused")
    }

    @Test func arraysKeepTheirStringsOnceInOrder() throws {
        let event = try Self.parse(fields: #""aliases":["b","a",null,"b","c","a",""]"#)
        #expect(event.aliases == ["b", "a", "c"])
    }

    @Test func arraysStopAtTheIDCountLimit() throws {
        let ids = (0..<(RevenueCatEvent.maximumIDCount + 20)).map { "\"id\($0)\"" }.joined(separator: ",")
        let event = try Self.parse(fields: #""aliases":[\#(ids)],"transferred_to":[\#(ids)]"#)
        #expect(event.aliases.count == RevenueCatEvent.maximumIDCount)
        #expect(event.aliases.first == "id0")
        #expect(event.aliases.last == "id\(RevenueCatEvent.maximumIDCount - 1)")
        #expect(event.transferredTo == event.aliases)
    }

    @Test(arguments: [
        ("4.99", Int64(499)), ("-4.99", -499), ("0", 0), ("4.99e0", 499), ("1E1", 1_000), ("0.005", 1),
    ])
    func priceIsReadFromTheNumbersText(text: String, cents: Int64) throws {
        #expect(try Self.parse(fields: #""price":\#(text)"#).price?.cents == cents)
    }

    @Test func aPriceOutOfRangeIsAbsent() throws {
        #expect(try Self.parse(fields: #""price":1e300"#).price == nil)
        #expect(try Self.parse(fields: #""price":10000000.01"#).price == nil)
        #expect(try !Self.parse(fields: #""price":1e300"#).priceIsUnknown, "no price, not an unknown one")
    }

    @Test func isFamilyShareIsReadWhenTrue() throws {
        #expect(try Self.parse(fields: #""is_family_share":true"#).isFamilyShare)
        for value in ["false", "null"] {
            #expect(try !Self.parse(fields: #""is_family_share":\#(value)"#).isFamilyShare, "\(value)")
        }
    }

    @Test func millisecondsMustBeIntegers() throws {
        let event = try Self.parse(fields: #""purchased_at_ms":1772442900000,"event_timestamp_ms":1772442905000"#)
        #expect(event.purchasedAt == 1_772_442_900_000)
        #expect(event.timestamp == 1_772_442_905_000)
        let fractional = try Self.parse(fields: #""purchased_at_ms":1772442900000.5,"event_timestamp_ms":1.7e12"#)
        #expect(fractional.purchasedAt == nil)
        #expect(fractional.timestamp == nil)
        let tooLarge = try Self.parse(fields: #""event_timestamp_ms":99999999999999999999"#)
        #expect(tooLarge.timestamp == nil)
    }

    @Test func unknownFieldsAreSkipped() throws {
        let event = try Self.parse(
            fields: #""subscriber_attributes":{"$email":{"value":"a@b.c"}},"entitlement_ids":["pro"],"price":1"#)
        #expect(event.price?.cents == 100)
    }

    // MARK: - Refunds and environments

    @Test(
        arguments: [
            ("CANCELLATION", "CUSTOMER_SUPPORT", "4.99", true), ("CANCELLATION", "CUSTOMER_SUPPORT", nil, true),
            ("CANCELLATION", "UNSUBSCRIBE", "4.99", false), ("CANCELLATION", "BILLING_ERROR", nil, false),
            ("CANCELLATION", "DEVELOPER_INITIATED", nil, false), ("CANCELLATION", "PRICE_INCREASE", nil, false),
            ("CANCELLATION", "UNKNOWN", nil, false), ("CANCELLATION", nil, nil, false),
            ("CANCELLATION", "UNSUBSCRIBE", "-4.99", true), ("RENEWAL", nil, "-4.99", true),
            ("INITIAL_PURCHASE", nil, "-0.01", true), ("TEST", nil, "-1", true),
            ("EXPIRATION", "CUSTOMER_SUPPORT", nil, false),
            ("INITIAL_PURCHASE", nil, "0", false), ("INITIAL_PURCHASE", nil, "-0", false),
        ] as [(String, String?, String?, Bool)])
    func whatIsARefund(type: String, reason: String?, price: String?, isRefund: Bool) {
        var event = RevenueCatEvent(id: "e", type: type)
        event.cancelReason = reason
        event.price = price.flatMap(USDAmount.init(parsing:))
        #expect(event.isRefund == isRefund)
    }

    @Test(arguments: [("PRODUCTION", true), ("SANDBOX", false), ("production", false), ("", false)])
    func onlyProductionIsProduction(environment: String, isProduction: Bool) throws {
        #expect(try Self.parse(fields: #""environment":"\#(environment)""#).isProduction == isProduction)
    }

    // MARK: - Customer lookup

    @Test func lookupOrderIsAppUserThenOriginalThenAliases() throws {
        let event = try Self.parse(fields: #""aliases":["c","d"],"original_app_user_id":"b","app_user_id":"a""#)
        #expect(event.customerLookupIDs == ["a", "b", "c", "d"])
    }

    @Test func lookupIDsAppearOnce() throws {
        let event = try Self.parse(
            fields: #""app_user_id":"a","original_app_user_id":"a","aliases":["b","a","c","b","a"]"#)
        #expect(event.customerLookupIDs == ["a", "b", "c"])
        let aliasFirst = try Self.parse(fields: #""app_user_id":"a","original_app_user_id":"b","aliases":["b","a"]"#)
        #expect(aliasFirst.customerLookupIDs == ["a", "b"])
    }

    @Test func lookupWithoutAppUserID() throws {
        #expect(try Self.parse(fields: #""original_app_user_id":"b","aliases":["c"]"#).customerLookupIDs == ["b", "c"])
        #expect(try Self.parse(fields: #""aliases":["c","a"]"#).customerLookupIDs == ["c", "a"])
        #expect(try Self.parse(fields: #""app_user_id":"a""#).customerLookupIDs == ["a"])
        #expect(try Self.parse(fields: "").customerLookupIDs.isEmpty)
    }

    @Test func transferLooksUpOnlyTransferredFrom() throws {
        let event = try Self.parse(
            #"""
            {"api_version":"1.0","event":{"id":"e","type":"TRANSFER","app_user_id":"new","aliases":["x"],
            "transferred_from":["old","old2","old"],"transferred_to":["new"]}}
            """#)
        #expect(event.customerLookupIDs == ["old", "old2"])
        #expect(event.transferredTo == ["new"])
        let empty = try Self.parse(#"{"api_version":"1.0","event":{"id":"e","type":"TRANSFER","app_user_id":"a"}}"#)
        #expect(empty.customerLookupIDs.isEmpty)
    }

    /// Times outside 2000–2100 are a unit mix-up or garbage: read as absent, so that no date arithmetic can
    /// overflow on them (`Int64.max` with a `duration_months` rule once trapped the server).
    @Test(arguments: ["-5", "0", "1772442900", "9223372036854775807", "-9223372036854775808", "4102444800001"])
    func implausibleTimesAreAbsent(text: String) throws {
        let event = try Self.parse(fields: #""purchased_at_ms":\#(text),"event_timestamp_ms":\#(text)"#)
        #expect(event.purchasedAt == nil && event.timestamp == nil)
    }

    @Test func timesMoreThanADayAheadAreAbsent() throws {
        let now: Int64 = 1_772_442_900_000
        var event = try Self.parse(
            fields: #""purchased_at_ms":\#(now + 86_400_000),"event_timestamp_ms":\#(now + 86_400_001)"#)
        event.ignoreTimes(after: now)
        #expect(event.purchasedAt == now + 86_400_000 && event.timestamp == nil)
    }
}
