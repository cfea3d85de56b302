import Foundation
import LinkCore
import TestSupport

/// RevenueCat webhook bodies, shaped like the samples in RevenueCat's documentation ("Event Types and Fields",
/// "Sample Events"): every field RevenueCat sends for a purchase, then the test's own values.
enum RevenueCatPayload {
    /// The fields of the documented `INITIAL_PURCHASE` sample, which the other event types share.
    static var documented: [String: Any] {
        [
            "event_timestamp_ms": 1_658_726_378_679, "product_id": "com.subscription.weekly", "period_type": "NORMAL",
            "purchased_at_ms": 1_658_726_374_000, "expiration_at_ms": 1_659_331_174_000, "environment": "PRODUCTION",
            "entitlement_id": NSNull(), "entitlement_ids": ["pro"], "presented_offering_id": NSNull(),
            "transaction_id": "123456789012345", "original_transaction_id": "123456789012345", "is_family_share": false,
            "country_code": "US", "app_user_id": "1234567890",
            "aliases": ["$RCAnonymousID:8069238d6049ce87cc529853916d624c"],
            "original_app_user_id": "$RCAnonymousID:87c6049c58069238dce29853916d624c", "currency": "USD",
            "price": Raw("4.99"), "price_in_purchased_currency": Raw("4.99"),
            "subscriber_attributes": ["$email": ["updated_at_ms": 1_662_955_084_635, "value": "firstlast@gmail.com"]],
            "store": "APP_STORE", "takehome_percentage": 0.7, "tax_percentage": 0.0, "commission_percentage": 0.3,
            "offer_code": NSNull(), "type": "INITIAL_PURCHASE", "id": "12345678-1234-1234-1234-123456789012",
            "app_id": "1234567890",
        ]
    }

    /// A body: the documented fields with `type`, a fresh `id` unless given, and `fields` over them (`NSNull()`
    /// sends null; a key mapped to `Optional<Any>.none` is left out).
    static func make(_ type: String, id: String = UUID().uuidString, _ fields: [String: Any?] = [:]) -> [UInt8] {
        var event = documented
        event["type"] = type
        event["id"] = id
        event["event_timestamp_ms"] = WallClock.milliseconds()
        event["purchased_at_ms"] = WallClock.milliseconds()
        for (key, value) in fields {
            if let value { event[key] = value } else { event.removeValue(forKey: key) }
        }
        // Numbers whose text matters (prices) go in as placeholders and come out as written.
        var raws: [(placeholder: String, text: String)] = []
        for (key, value) in event {
            guard let raw = value as? Raw else { continue }
            let placeholder = "@@raw\(raws.count)@@"
            raws.append((placeholder, raw.text))
            event[key] = placeholder
        }
        let body: [String: Any] = ["api_version": "1.0", "event": event]
        var text = String(
            decoding: try! JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
        for (placeholder, raw) in raws { text = text.replacingOccurrences(of: "\"\(placeholder)\"", with: raw) }
        return Array(text.utf8)
    }

    /// A JSON number written exactly as given, e.g. `Raw("9.99")`.
    struct Raw {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// A purchase of `user` for `price` dollars (the number's text) in transaction `transaction`.
    static func purchase(
        _ type: String = "INITIAL_PURCHASE", user: String, price: String, transaction: String,
        id: String = UUID().uuidString, _ fields: [String: Any?] = [:]
    ) -> [UInt8] {
        var all: [String: Any?] = [
            "app_user_id": user, "original_app_user_id": user, "aliases": [user], "price": Raw(price),
            "price_in_purchased_currency": Raw(price),
            "transaction_id": transaction, "original_transaction_id": transaction,
        ]
        all.merge(fields) { $1 }
        return make(type, id: id, all)
    }

    /// A `TRANSFER` of the subscription from the ids `from` to the ids `to`: RevenueCat's sample carries no user,
    /// transaction or price of its own, so those documented fields are left out; `fields` go over the rest.
    static func transfer(from: [String], to: [String], _ fields: [String: Any?] = [:]) -> [UInt8] {
        var all: [String: Any?] = [
            "transferred_from": from, "transferred_to": to, "app_user_id": nil, "original_app_user_id": nil,
            "aliases": nil, "transaction_id": nil, "original_transaction_id": nil, "price": nil,
            "price_in_purchased_currency": nil,
        ]
        all.merge(fields) { $1 }
        return make("TRANSFER", all)
    }

    /// A refund by customer support of `transaction`.
    static func refund(user: String, transaction: String, _ fields: [String: Any?] = [:]) -> [UInt8] {
        var all: [String: Any?] = ["cancel_reason": "CUSTOMER_SUPPORT"]
        all.merge(fields) { $1 }
        return purchase("CANCELLATION", user: user, price: "0", transaction: transaction, all)
    }
}
