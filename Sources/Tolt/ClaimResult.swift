/// What the edge answered to a claim: whether this claim tied the user to the partner, and for which user.
///
/// ```swift
/// let result = try await Tolt.claim(code: "SAM20", appUserId: Purchases.shared.appUserID)
/// if result.status == .claimed || result.isSameClaim { showThanks() }
/// ```
///
/// With either of those, ``code`` and ``partnerName`` say what is in effect, for the app to tell the person:
///
/// ```swift
/// if let code = result.code { show("Code \(code) applied") }
/// if let name = result.partnerName { show("Invited by \(name)") }
/// ```
public struct ClaimResult: Sendable, Hashable {
    /// How the claim ended: every status is a success, and claiming is safe to repeat.
    ///
    /// A struct over the edge's raw value rather than an enum, so that a status added later (by the edge, or by a
    /// later SDK) reaches the app as a status with its ``rawValue`` instead of breaking its `switch` or its claim.
    /// Compare with `==` or match in a `switch`, with a `default`:
    ///
    /// ```swift
    /// switch result.status {
    /// case .claimed: showThanks()
    /// case .alreadyClaimed: break
    /// default: break  // a status newer than this code
    /// }
    /// ```
    public struct Status: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The edge's word for it, as in its answer: `claimed`, `already_claimed`, ….
        public let rawValue: String

        /// The status the edge calls `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `claimed`: this claim tied the user to the partner of the code or click.
        public static let claimed = Status(rawValue: "claimed")
        /// `already_claimed`: the user already had a partner in this organization (the first code wins), so
        /// nothing changed; ``ClaimResult/isSameClaim`` says whether that partner came from this same code or click.
        public static let alreadyClaimed = Status(rawValue: "already_claimed")

        /// ``rawValue``.
        public var description: String { rawValue }
    }

    /// ``Status/claimed`` or ``Status/alreadyClaimed`` (or a status newer than this SDK).
    public let status: Status
    /// The app user id the claim was made for, as the edge stored it.
    public let appUserId: String
    /// With ``Status/alreadyClaimed``: the user's partner was claimed earlier with this same code (in any case)
    /// or, for a click claim, this same click, so the code the person entered is the one in effect. That is a
    /// retry whose first answer was lost on the way (the edge stored the claim, the app never heard), or the app
    /// claiming again on a later launch; `false` when another code or click came first (and with
    /// ``Status/claimed``, which says so itself).
    public let isSameClaim: Bool
    /// With ``Status/claimed``, or ``Status/alreadyClaimed`` and ``isSameClaim``: the code in effect for the user,
    /// spelled as the partner's code is stored (`SAM20` when the person typed `sam20`), also for a click or link
    /// claim (its link's code). `nil` when another code or click came first: the edge does not say whose user that
    /// is, since the public key ships in every copy of the app and anyone could ask about any user id. `nil` too
    /// from an edge older than this field.
    public let code: String?
    /// Alongside ``code``: the name of the partner the code belongs to, as the edge's configuration names them
    /// (`Sam`), for "Invited by Sam"; `nil` where ``code`` is, and when the partner has no name to show.
    public let partnerName: String?

    /// A result with these values; the SDK makes them from the edge's answer, apps may make their own in tests.
    public init(
        status: Status, appUserId: String, isSameClaim: Bool = false, code: String? = nil, partnerName: String? = nil
    ) {
        self.status = status
        self.appUserId = appUserId
        self.isSameClaim = isSameClaim
        self.code = code
        self.partnerName = partnerName
    }
}
