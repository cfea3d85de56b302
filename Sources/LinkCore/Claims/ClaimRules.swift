/// The claim rules that follow the organization and first-code-wins checks: which partner code a claim
/// names, and whether the program's claim window allows it. Pure: the caller reads the store.
public enum ClaimRules {
    /// Resolves the code (or click) of a claim against the link table.
    ///
    /// - `click_id` wins over `code`; it must parse, carry a valid signature (`isAuthentic`) and refer to a
    ///   code of `organization` (404 `unknown_click`), whose code and partner are active (404 `unknown_code`).
    /// - A code must be active with an active partner (404 `unknown_code`) and held by one partner (409).
    /// - With a claim window: `first_seen_at` is required (400), at most that many days ago (409); a time in the
    ///   future counts as now.
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
        var firstSeenAt = request.firstSeenAt.map { min($0, now) }
        if let days = target.program.record.claimWindowDays {
            guard let seen = firstSeenAt else { throw .firstSeenRequired(days: days) }
            guard now - seen <= Int64(days) * 86_400_000 else { throw .claimWindowClosed(days: days) }
            firstSeenAt = seen
        }
        return (target, firstSeenAt)
    }
}
