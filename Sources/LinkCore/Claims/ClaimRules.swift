/// The claim rules that follow the organization and first-code-wins checks: which partner code a claim
/// names, and whether the program's claim window allows it. Pure: the caller reads the store.
public enum ClaimRules {
    /// Resolves the code (or click) of a claim against the link table.
    ///
    /// - `click_id` wins over `code`; it must parse, carry a valid signature (`isAuthentic`) and refer to a
    ///   code of `organization` (404 `unknown_click`), whose code and partner are active (404 `unknown_code`).
    /// - A code must be active with an active partner (404 `unknown_code`) and held by one partner (409).
    /// - A `first_seen_at` before ``earliestFirstSeen`` or after `now` counts as `now`, the claim's own time, and is
    ///   returned as such (``firstSeen(_:now:)``).
    /// - With a claim window: `first_seen_at` is required (400), at most that many days ago (409).
    public static func resolve(
        _ request: ClaimRequest, organization: OrganizationRecord, table: LinkTable, now: Int64,
        isAuthentic: (ClickID) -> Bool
    ) throws(ClaimFailure) -> (target: LinkTarget, firstSeenAt: Int64?) {
        let target: LinkTarget
        if let text = request.clickID {
            guard let click = ClickID(parsing: text), isAuthentic(click),
                let clicked = table.target(reference: click.codeReference),
                clicked.organizationID == organization.id
            else { throw .unknownClick }
            guard clicked.isActive else { throw .unknownCode }
            target = clicked
        } else {
            switch table.match(publicKey: organization.publicKey, code: request.code ?? "") {
            case nil: throw .unknownCode
            case .conflict?: throw .codeConflict
            case .target(let matched)?: target = matched
            }
        }
        let firstSeenAt = request.firstSeenAt.map { firstSeen($0, now: now) }
        if let days = target.program.record.claimWindowDays {
            guard let seen = firstSeenAt else { throw .firstSeenRequired(days: days) }
            guard now - seen <= Int64(days) * 86_400_000 else { throw .claimWindowClosed(days: days) }
        }
        return (target, firstSeenAt)
    }

    /// The earliest `first_seen_at` taken as an app's first open: 2020-01-01T00:00:00Z, in milliseconds, the bound the
    /// SDK keeps too (`FirstOpenStorage.earliestPlausible`). A phone whose clock was never set (new, or reset, before
    /// it reached the network) reads 1970, or 2001 or 2010 after some resets, and the SDK sends that launch's time
    /// when it has no first open from a set clock; a client of its own may send year 0000.
    static let earliestFirstSeen: Int64 = 1_577_836_800_000

    /// The first open a claim is judged and stored by: `seen`, unless it is before ``earliestFirstSeen`` or after
    /// `now`, in which case the claim's own time.
    ///
    /// Either is a device clock that was wrong when the app opened (not yet set, or ahead), or a value that is no
    /// time at all. Refusing it would fail the claim of a user who did nothing wrong, and a clock that stays wrong
    /// would fail every claim of that install; counting it as its earliest possible time (1970) would close every
    /// claim window for good. The claim's own time is the one the server knows: the window counts from this claim,
    /// as it does for an install whose first open could not be stored. It defends nothing either way: a client can
    /// send any recent time (SECURITY.md).
    static func firstSeen(_ seen: Int64, now: Int64) -> Int64 {
        seen < earliestFirstSeen || seen > now ? now : seen
    }
}
