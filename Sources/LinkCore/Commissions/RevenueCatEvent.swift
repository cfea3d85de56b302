/// The fields of a RevenueCat webhook event that attribution reads, parsed from the body RevenueCat posts:
/// `{"api_version":"1.0","event":{"id":…,"type":…,…}}`.
///
/// The envelope is strict (`api_version`, an `event` object with a string `id` and `type`, no object that names a
/// member twice, at any depth), and so is each field attribution reads (``typedFields``): it has the type
/// RevenueCat documents, or is null or absent, and a user, transaction or product id is at most
/// ``maximumIDLength`` bytes without control characters; any of these read as absent would pay or refund wrongly
/// and be answered `200`, so never retried. Every other field is not looked at, so an event RevenueCat changes or
/// adds later is still stored and answered `200` rather than refused and retried for hours.
public struct RevenueCatEvent: Sendable, Equatable {
    /// The largest body accepted, in bytes.
    public static let maximumBodySize = 1 << 20
    /// The longest id (event, user, transaction, product) read, in bytes; an event with a longer one is refused.
    /// A claim's `app_user_id` is bounded by it too (``ClaimRequest/maximumUserIDBytes``), so every claimed user
    /// can be found.
    public static let maximumIDLength = 1024
    /// The most user ids read from `aliases`, `transferred_from` or `transferred_to`.
    public static let maximumIDCount = 1000

    /// RevenueCat's event id, unique per event and kept across redeliveries.
    public var id: String
    /// `INITIAL_PURCHASE`, `RENEWAL`, `CANCELLATION`, …, or a type added later.
    public var type: String
    /// `PRODUCTION` or `SANDBOX`.
    public var environment: String?
    /// The event's `app_user_id`.
    public var appUserID: String?
    /// The event's `original_app_user_id`.
    public var originalAppUserID: String?
    /// The event's `aliases`: other user ids RevenueCat merged into this one.
    public var aliases: [String] = []
    /// A `TRANSFER`'s old and new user ids.
    public var transferredFrom: [String] = []
    /// A `TRANSFER`'s new user ids.
    public var transferredTo: [String] = []
    /// The purchase's transaction: RevenueCat's `transaction_id`, with the period for Stripe (``periodKey(_:_:)``).
    /// A store may find a Stripe purchase under another key (``unkeyedTransactionID``).
    public var transactionID: String?
    /// The first transaction of the subscription, keyed as ``transactionID`` is.
    public var originalTransactionID: String?
    /// A Stripe event's `transaction_id` as RevenueCat sent it, without the period; `nil` for another store's. The
    /// key of a Stripe purchase recorded before they were keyed by period, and of a Stripe event without one.
    public var unkeyedTransactionID: String?
    /// A Stripe event's `original_transaction_id` as sent, as ``unkeyedTransactionID`` is.
    public var unkeyedOriginalTransactionID: String?
    /// `store`: `APP_STORE`, `PLAY_STORE`, `STRIPE`, …
    public var store: String?
    /// `renewal_number`: the subscription's period, 1 for its first (an integer from 1 to ``maximumRenewalNumber``;
    /// any other number refuses the event).
    public var renewalNumber: Int64?
    /// RevenueCat's `product_id`, when the event had one.
    public var productID: String?
    /// `TRIAL`, `INTRO`, `NORMAL`, `PROMOTIONAL`, `PREPAID`.
    public var periodType: String?
    /// A `CANCELLATION`'s reason: `CUSTOMER_SUPPORT` is a refund.
    public var cancelReason: String?
    /// The price in US dollars, negative for a refund; `nil` when absent, null or out of range.
    public var price: USDAmount?
    /// Whether `price` is null, which RevenueCat documents as "the price is unknown" (an absent price or a number out
    /// of range is no price rather than an unknown one, as before RevenueCat said so; a string or a boolean is
    /// refused).
    public var priceIsUnknown = false
    /// Milliseconds since 1970.
    public var purchasedAt: Int64?
    /// Milliseconds since 1970: when RevenueCat created the event, the order of events for one customer.
    public var timestamp: Int64?
    /// `is_family_share`: an App Store purchase shared by its buyer with a member of their Family Sharing group.
    /// The member's events report the buyer's payment again; RevenueCat leaves them out of its revenue.
    public var isFamilyShare = false

    /// A value with every field given.
    public init(id: String, type: String) {
        self.id = id
        self.type = type
    }

    /// Parses a webhook body; the error says what is missing.
    public init(body: [UInt8]) throws(RevenueCatEventError) {
        let root: JSONValue
        // Half a surrogate pair in the app's text (`subscriber_attributes`) is read as U+FFFD rather than refusing
        // the event: a refused event is retried and then dropped by RevenueCat, and its purchase never pays.
        do {
            root = try JSONParser.parse(body, unpairedSurrogates: .replaced)
        } catch {
            throw .init("The body is not valid JSON: \(error)")
        }
        guard case .object = root else { throw .init("The body must be a JSON object") }
        // Refused, not read as its last value: the body is stored as posted, and a reader of it that takes the
        // first value would see another event (another price, user or transaction). RevenueCat never repeats one.
        if let path = root.repeatedMemberPath {
            let shown = path.unicodeScalars.count <= 128 ? path : "a member"
            throw .init("The body names \(shown) more than once")
        }
        guard let version = root["api_version"], version != .null else {
            throw .init("api_version is required: the body must be {\"api_version\":…,\"event\":{…}}")
        }
        guard let event = root["event"], case .object = event else {
            throw .init("event must be an object: the body must be {\"api_version\":…,\"event\":{…}}")
        }
        guard case .string(let id)? = event["id"], Self.isUsableID(id) else {
            throw .init("event.id must be a string of 1–\(Self.maximumIDLength) bytes without control characters")
        }
        guard case .string(let type)? = event["type"], !type.isEmpty, type.utf8.count <= 64,
            !ASCII.containsControl(type.utf8)
        else {
            throw .init("event.type must be a string of 1–64 bytes without control characters")
        }
        // Every field read has the type RevenueCat documents, or is null or absent (null is how RevenueCat sends a
        // value it has not: a `TEST` event's `transaction_id`, an unknown `price`). One of another type is refused,
        // naming it, rather than read as absent: `"transaction_id":2000000123456789` (a number) went unread, so the
        // purchase paid again on a redelivery under another event id and its refund was `ignored`, and
        // `"price":"9.99"` was a `free_purchase`, each answered `200` and so never retried.
        for (name, kind) in Self.typedFields {
            try Self.checkType(of: event[name], kind, "event.\(name)")
        }
        self.init(id: id, type: type)
        func text(_ name: String) -> String? {
            guard case .string(let value)? = event[name], Self.isUsableID(value) else { return nil }
            return value
        }
        // An id too long to read, or holding a control character (no RevenueCat id has one), is refused rather than
        // read as absent: a purchase whose `transaction_id` went unread would pay again on its redelivery under
        // another event id, and its refund would be `ignored`. An empty one is absent.
        func identifier(_ name: String) throws(RevenueCatEventError) -> String? {
            if case .string(let value)? = event[name] {
                try Self.checkLength(value, "event.\(name)")
                if ASCII.containsControl(value.utf8) {
                    throw .init("event.\(name) holds a control character, which no id has")
                }
            }
            return text(name)
        }
        // A list's id too long to read is skipped, not refused (its elements' type is checked above; a null one is
        // skipped too): it only ties users, and refusing the event would leave its purchase unpaid through every
        // redelivery, for an alias no store could find anyway.
        func identifiers(_ name: String) -> [String] {
            guard case .array(let items)? = event[name] else { return [] }
            // By bytes, as the store finds users: a `Set<String>` is canonical equivalence, and would drop an id
            // written with other code points than one before it (`é` as U+00E9, and as `e` with U+0301).
            var seen: Set<[UInt8]> = []
            var result: [String] = []
            for item in items {
                guard case .string(let value) = item else { continue }
                guard Self.isUsableID(value) else { continue }
                if seen.insert(Array(value.utf8)).inserted { result.append(value) }
                if result.count == Self.maximumIDCount { break }
            }
            return result
        }
        func milliseconds(_ name: String) -> Int64? {
            guard case .number(let value)? = event[name], let milliseconds = Int64(value),
                Self.plausibleTimes.contains(milliseconds)
            else { return nil }
            return milliseconds
        }
        environment = text("environment")
        appUserID = try identifier("app_user_id")
        originalAppUserID = try identifier("original_app_user_id")
        aliases = identifiers("aliases")
        transferredFrom = identifiers("transferred_from")
        transferredTo = identifiers("transferred_to")
        transactionID = try identifier("transaction_id")
        originalTransactionID = try identifier("original_transaction_id")
        productID = try identifier("product_id")
        periodType = text("period_type")
        cancelReason = text("cancel_reason")
        if case .number(let value)? = event["price"] { price = USDAmount(parsing: value) }
        priceIsUnknown = event["price"] == .null
        purchasedAt = milliseconds("purchased_at_ms")
        timestamp = milliseconds("event_timestamp_ms")
        isFamilyShare = event["is_family_share"] == .bool(true)
        store = text("store")
        // RevenueCat documents an integer that starts at 1. Any spelling of one is read (`1e3`, `2.0`). For Stripe,
        // whose purchases it keys, anything else is refused rather than read as absent: a period read as absent keyed
        // the purchase by the bare id, so `0` paid a second commission for a period already paid, and a refund
        // reversed nothing while answering `refunded`, each answered `200` and so never retried. Another store's
        // purchase does not depend on it, so there it is read when it is one and never refuses the event: a refusal
        // is retried and then dropped, and the purchase would never pay over a field nothing needs.
        switch event["renewal_number"] {
        case .number(let value)?:
            if let number = Self.integer(value, in: 1...Self.maximumRenewalNumber) {
                renewalNumber = number
            } else if store == "STRIPE" {
                let shown = value.utf8.count <= 32 ? value : "a number of \(value.utf8.count) characters"
                throw .init(
                    "event.renewal_number must be a whole number from 1 to \(Self.maximumRenewalNumber) (the "
                        + "subscription's period, 1 for its first), not \(shown)")
            }
        case nil, .null?:
            break
        case let other?:
            if store == "STRIPE" {
                throw .init("event.renewal_number must be a number or null, not \(other.typeName)")
            }
        }
        if store == "STRIPE" {
            unkeyedTransactionID = transactionID
            unkeyedOriginalTransactionID = originalTransactionID
        }
        transactionID = transactionID.map { periodKey($0, renewalNumber) }
        originalTransactionID = originalTransactionID.map { periodKey($0, 1) }
    }

    /// A transaction id as the ledger keys it: the id itself, except Stripe's with its period (`sub_1PxYz#3`).
    /// RevenueCat's `transaction_id` for Stripe is not unique per purchase (its exports say so, and advise the id
    /// with `renewal_number`): each renewal of a subscription repeats it, so keyed alone, every period after the
    /// first was a `duplicate_transaction` that paid nothing, and a refund of the latest period reversed the first
    /// period's commission. The first period is `renewal_number` 1, so a renewal's `original_transaction_id` names
    /// it as `#1`. A Stripe event without a `renewal_number` keeps the bare id (``unkeyedTransactionID``); the store
    /// finds a refund of one, and a purchase recorded under the bare id before this keying, by their own lookups.
    private func periodKey(_ id: String, _ period: Int64?) -> String {
        guard store == "STRIPE", renewalNumber != nil, let period else { return id }
        return id + "#" + String(period)
    }

    /// The largest `renewal_number` read, 2^31 − 1: a subscription renewed daily reaches it in millions of years,
    /// and a larger number is a mistake, refused with the others.
    public static let maximumRenewalNumber: Int64 = 2_147_483_647

    /// The value of the JSON number `text` when it is an integer in `range`, however it is written (`1000`, `1e3`,
    /// `1000.0`, `10000e-1`); `nil` for a fraction or a value outside `range`. Exact: the digits are read as
    /// written, never through a `Double` (which would take `2.0000000000000001` for 2). The work is linear in the
    /// text's length and an exponent of any size is fine (`1e999999999999999999` is outside every range).
    public static func integer(_ text: String, in range: ClosedRange<Int64>) -> Int64? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        // The significant digits (integer and fraction parts together) and the power of ten they are scaled by.
        var digits: [UInt8] = []
        var scale: Int64 = 0
        var seenPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            if digits.isEmpty, byte == UInt8(ascii: "0") {
                if seenPoint { scale -= 1 }
                continue
            }
            digits.append(byte)
            if seenPoint { scale -= 1 }
            // More significant digits than any Int64 has: a fraction or out of range, whatever follows.
            if digits.count > 40 { return nil }
        }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                exponentNegative = bytes.first == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var exponent: Int64 = 0
            for byte in bytes {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                // Capped: beyond a million either way the value is a fraction, zero or out of range anyway.
                exponent = min(exponent * 10 + Int64(byte - UInt8(ascii: "0")), 1_000_000)
            }
            scale += exponentNegative ? -exponent : exponent
        }
        guard !digits.isEmpty else { return range.contains(0) ? 0 : nil }
        // Trailing zeros of the digits move into the scale: `1000.0` is 1 × 10^3.
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            scale += 1
        }
        guard scale >= 0, Int64(digits.count) + scale <= 19 else { return nil }
        var value: Int64 = 0
        for digit in digits + Array(repeating: UInt8(ascii: "0"), count: Int(scale)) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = sum
        }
        if negative { value = -value }
        return range.contains(value) ? value : nil
    }

    /// Event times this side of 2000 and 2100, in milliseconds: anything else is a unit mix-up or garbage, and is
    /// read as absent rather than trusted (date arithmetic on it could overflow, and a far-future time would
    /// make every later event look stale).
    public static let plausibleTimes: ClosedRange<Int64> = 946_684_800_000...4_102_444_800_000

    /// Reads an event time later than `now` plus a day as absent: a clock far ahead would otherwise make every
    /// real event after it look older.
    public mutating func ignoreTimes(after now: Int64) {
        let latest = now + 86_400_000
        if let time = timestamp, time > latest { timestamp = nil }
        if let time = purchasedAt, time > latest { purchasedAt = nil }
    }

    /// The JSON type of a field read, as RevenueCat's "Event Types and Fields" documents it.
    enum FieldType: Sendable {
        /// A JSON string.
        case string
        /// A JSON number.
        case number
        /// `true` or `false`.
        case boolean
        /// An array of strings (a null element is skipped, as an absent id).
        case strings

        /// The type as an error message names it.
        var name: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .boolean: "a boolean"
            case .strings: "an array of strings"
            }
        }
    }

    /// Every field of the event read (besides `id` and `type`), with its documented type: one present with another
    /// type (but null) refuses the event. The rest of the event is not looked at.
    static let typedFields: [(name: String, type: FieldType)] = [
        ("environment", .string), ("app_user_id", .string), ("original_app_user_id", .string),
        ("aliases", .strings), ("transferred_from", .strings), ("transferred_to", .strings),
        ("transaction_id", .string), ("original_transaction_id", .string), ("product_id", .string),
        ("period_type", .string), ("cancel_reason", .string), ("price", .number), ("purchased_at_ms", .number),
        ("event_timestamp_ms", .number), ("is_family_share", .boolean), ("store", .string),
    ]

    /// Refuses `value` (the field `field`) unless it is absent, null or of type `type`; for a list, each element
    /// too, naming the first of another type (`event.aliases[2]`).
    private static func checkType(of value: JSONValue?, _ type: FieldType, _ field: String)
        throws(RevenueCatEventError)
    {
        switch (type, value) {
        case (_, nil), (_, .null?), (.string, .string?), (.number, .number?), (.boolean, .bool?): return
        case (.strings, .array(let items)?):
            for (index, item) in items.enumerated() {
                switch item {
                case .string, .null: continue
                default: throw .init("\(field)[\(index)] must be a string, not \(item.typeName)")
                }
            }
            return
        case (_, let value?):
            throw .init("\(field) must be \(type.name) or null, not \(value.typeName)")
        }
    }

    /// Refuses an id longer than ``maximumIDLength`` bytes, naming where it is (`event.aliases[2]`) and the limit.
    private static func checkLength(_ value: String, _ field: String) throws(RevenueCatEventError) {
        guard value.utf8.count > maximumIDLength else { return }
        throw .init(
            "\(field) is longer than \(maximumIDLength) bytes, the longest id read (it has \(value.utf8.count))")
    }

    /// Whether a string can serve as an id: 1 to ``maximumIDLength`` bytes, no control characters.
    static func isUsableID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumIDLength && !ASCII.containsControl(text.utf8)
    }

    /// The user ids to find the customer by, in order: `app_user_id`, `original_app_user_id`, then each alias, each
    /// once; for a `TRANSFER`, the ids it moves away from.
    public var customerLookupIDs: [String] {
        if type == "TRANSFER" { return transferredFrom }
        // By bytes, as the store finds users (see `texts` in `init(body:)`), in one pass: a renewal names up to
        // ``maximumIDCount`` aliases, and comparing each with every id kept took 81 ms for 1,000.
        var seen: Set<[UInt8]> = []
        return ([appUserID, originalAppUserID].compactMap { $0 } + aliases).filter {
            seen.insert(Array($0.utf8)).inserted
        }
    }

    /// Whether the event is from the production environment: only those pay.
    public var isProduction: Bool { environment == "PRODUCTION" }

    /// Whether the event takes a purchase back: a `CANCELLATION` by customer support, or a negative price of at
    /// least a cent once rounded (a price rounds the same way either side of zero: `0.004` is free, `-0.004` is no
    /// refund).
    public var isRefund: Bool {
        (type == "CANCELLATION" && cancelReason == "CUSTOMER_SUPPORT") || (price.map { $0.cents < 0 } ?? false)
    }
}

/// Why a webhook body was refused (`400`).
public struct RevenueCatEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the body, for the `400`'s message.
    public var message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
