import LinkCore

/// The checks of the lists' filters that the API's `/v1` lists (the dashboard's through them) and `tolt-edge clicks`,
/// `customers` and `commissions` share, so that a filter the API answers `400` the CLI refuses too (exit 2), for the
/// same reason: an unset, mistyped or foreign filter must not read as "no rows" (a payout script's
/// `--partner-id "$P"`, with `P` unset or mistyped, would read "nothing owed"). Each check is given the filter's name
/// as its caller spells it (`partner_id` in a query, `--partner-id` on a command line), and its refusal's message
/// starts with that name.
public enum ListFilters {
    /// A filter refused: ``message`` names it and says why.
    public struct Refusal: Error, Sendable {
        public let message: String
    }

    /// Refuses an empty value, as a script writes an unset variable: it would list every row or none.
    public static func requireValue(_ value: String, name: String) throws(Refusal) {
        guard value.isEmpty else { return }
        throw emptyValue(name: name)
    }

    /// The refusal of a filter given empty.
    static func emptyValue(name: String) -> Refusal {
        Refusal(message: "\(name) is empty: give it a value, or leave it out")
    }

    /// A partner id of at most 64 bytes, as the import allows, of one of the organization's partners, active or not
    /// (`isPartner` answers; partners are never deleted, so every partner a row names is one): another
    /// organization's partner, or none, is refused, never an empty list.
    public static func partnerID(_ partner: String, name: String, isPartner: (String) throws -> Bool) throws
        -> String
    {
        guard partner.utf8.count <= 64 else {
            throw Refusal(message: "\(name) must be a partner id of 1 to 64 bytes")
        }
        guard try isPartner(partner) else {
            throw Refusal(message: "\(name) \(QuotedText.shown(partner)) is not a partner of this organization")
        }
        return partner
    }

    /// A cursor of a list whose ids start with `prefix` (`cust_`, `comm_`), `noun` saying what it names: another
    /// list's id, or text that is no id, is refused (whether it names a row is the store's to say, when the page is
    /// read: ``EdgeStore/StoreError/unknownCursor(_:)``).
    public static func cursor(_ after: String, name: String, prefix: String, noun: String) throws(Refusal) -> String {
        guard after.hasPrefix(prefix), after.utf8.count <= 64 else {
            throw Refusal(message: "\(name) must be \(noun) (\(prefix)…)")
        }
        return after
    }

    /// A cursor of the clicks, which must be a click id (``LinkCore/ClickID``): a click id names a time, so any valid
    /// one is a place in the list, and anything else (`clk_bad`) is refused.
    public static func clickCursor(_ after: String, name: String) throws(Refusal) -> String {
        guard ClickID(parsing: after) != nil else {
            throw Refusal(message: "\(name) must be a click id (clk_…)")
        }
        return after
    }

    /// One of `Status`'s values.
    public static func status<Status: RawRepresentable & CaseIterable>(
        _ text: String, name: String, as: Status.Type
    ) throws(Refusal) -> Status where Status.RawValue == String {
        guard let status = Status(rawValue: text) else {
            throw Refusal(
                message: "\(name) must be one of " + Status.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return status
    }

    /// An ISO 8601 time with its offset (`2026-01-31T12:00:00Z`, `2026-01-31T13:00:00+01:00`), as a claim's
    /// `first_seen_at` is read; `hint` is said after the forms (the API's: a `+` in a query is a space).
    public static func time(_ text: String, name: String, hint: String? = nil) throws(Refusal) -> Int64 {
        guard let millis = Timestamp.parse(text) else {
            throw Refusal(
                message: "\(name) must be an ISO 8601 time with its offset, such as 2026-01-31T12:00:00Z or"
                    + " 2026-01-31T13:00:00+01:00" + (hint.map { " (\($0))" } ?? ""))
        }
        return millis
    }

    /// A half-open range of times, refused when it holds no time at all (`since` not before `before`): an empty
    /// list would read as "none in that range" when the range was written backwards.
    public static func range(since: Int64?, before: Int64?, names: (since: String, before: String)) throws(Refusal) {
        guard let since, let before, since >= before else { return }
        throw Refusal(
            message: "\(names.since) (\(Timestamp.format(since))) must be before \(names.before) "
                + "(\(Timestamp.format(before))): the range is half-open, \(names.since) included")
    }

    /// `true` or `false`, as written: a `1`, `yes` or `True` is refused rather than read as one of them.
    public static func boolean(_ text: String, name: String) throws(Refusal) -> Bool {
        switch text {
        case "true": return true
        case "false": return false
        default: throw Refusal(message: "\(name) must be true or false")
        }
    }
}
