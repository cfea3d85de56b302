/// What the edge answered to a claim: whether this claim tied the user to the partner, and for which user.
///
/// ```swift
/// let result = try await Tolt.claim(code: "SAM20", appUserId: Purchases.shared.appUserID)
/// if result.status == .claimed { showThanks() }
/// ```
public struct ClaimResult: Sendable, Hashable {
    /// How the claim ended. Both are successes: claiming is safe to repeat.
    public enum Status: String, Sendable, Hashable {
        /// This claim tied the user to the partner of the code or click.
        case claimed
        /// The user already had a partner in this organization (the first code wins), so nothing changed.
        case alreadyClaimed = "already_claimed"
    }

    /// ``Status/claimed`` or ``Status/alreadyClaimed``.
    public let status: Status
    /// The app user id the claim was made for, as the edge stored it.
    public let appUserId: String

    /// A result with these values; the SDK makes them from the edge's answer, apps may make their own in tests.
    public init(status: Status, appUserId: String) {
        self.status = status
        self.appUserId = appUserId
    }
}
