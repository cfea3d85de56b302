import Foundation

/// The Tolt SDK: configure it once at launch with your public key, then claim the partner code or click that
/// brought the user, for the user's RevenueCat app user id.
///
/// ```swift
/// import Tolt
///
/// Tolt.configure(publicId: "YOUR_PUBLIC_KEY")
///
/// let result = try await Tolt.claim(
///   code: "SAM20",
///   appUserId: Purchases.shared.appUserID
/// )
/// ```
///
/// Claim window: the SDK records the first open for you. The first ``configure(publicId:)`` stores the time,
/// and every claim sends it as `first_seen_at`, so a program's claim window works with no code in the app.
///
/// Every call is safe from any thread or actor; claims are `async` and never block the caller's thread.
/// Cancelling the task of a claim stops its retries and throws `CancellationError`.
///
/// A claim retries network failures, `5xx` and `429` for at most a minute: no wait is begun that would end more
/// than 60 s after the claim began. An attempt times out within 30 s, so a claim returns or throws within 90 s.
public enum Tolt: Sendable {
    /// The production edge, `https://edge.tolt.io`, where ``configure(publicId:)`` sends claims. A self-hosted edge
    /// is configured with ``configure(publicId:baseURL:)``: without it, claims go here, not to your edge.
    public static let defaultBaseURL = URL(string: "https://edge.tolt.io")!

    /// Configures the SDK with your organization's public key (`pk_…`), for the production edge.
    ///
    /// Call it once at launch, before any claim. The first call records the app's first open. Calling it again
    /// replaces the key; the first open stays.
    public static func configure(publicId: String) {
        ToltState.current.configure(publicId: publicId, baseURL: nil)
    }

    /// Configures the SDK with your organization's public key for a self-hosted edge at `baseURL`
    /// (`https://links.example.com`, or with a path prefix: `https://example.com/tolt`).
    public static func configure(publicId: String, baseURL: URL) {
        ToltState.current.configure(publicId: publicId, baseURL: baseURL)
    }

    /// Records that the app was first opened at `date`, when the app knows of an open before the SDK's first launch:
    /// an app that had users before it added the SDK, whose first launch with the SDK would otherwise open a new claim
    /// window for each of them.
    ///
    /// Pass the earliest time the app knows the user had it: on iOS 16 and later,
    /// `AppTransaction.shared`'s `originalPurchaseDate` (when this Apple ID first got the app, free apps included), or
    /// RevenueCat's `CustomerInfo.firstSeen`, or a time the app stored itself. The first open only moves earlier: a
    /// `date` after the stored one changes nothing, and one before 2020 (a clock not yet set) or in the future is
    /// ignored. Call it at launch, after or before ``configure(publicId:baseURL:)``; claims made after it send the
    /// earlier time as `first_seen_at`, and it is stored for later launches.
    public static func recordFirstOpen(_ date: Date) {
        ToltState.current.recordFirstOpen(date)
    }

    /// Claims a partner's code (such as one the user typed at onboarding) for `appUserId`.
    ///
    /// Pass the code as the user typed it: the edge matches it without case, drops the whitespace and invisible
    /// characters around it, and reads a full-width `ＳＡＭ２０` (a Japanese, Chinese or Korean keyboard's) as `SAM20`.
    ///
    /// - Returns: ``ClaimResult/Status/claimed``, or ``ClaimResult/Status/alreadyClaimed`` when the user
    ///   already has a partner (the first code wins; ``ClaimResult/isSameClaim`` when that partner came from this
    ///   same code; with either, ``ClaimResult/code`` and ``ClaimResult/partnerName`` say what is in effect); a later
    ///   edge may answer another success status, which arrives with its raw value.
    /// - Throws: ``ToltError``: ``ToltError/unknownCode``, ``ToltError/claimWindowClosed``, … once retries of
    ///   network failures, server errors and rate limits are spent (within 90 s); ``ToltError/notConfigured``
    ///   before ``configure(publicId:)``; `CancellationError` when the claim's task is cancelled.
    @discardableResult
    public static func claim(code: String, appUserId: String) async throws -> ClaimResult {
        try await ToltState.current.configuredClient().claim(.code(code), appUserId: appUserId)
    }

    /// Claims a click on a partner's link (`clk_…`, from the `tolt_click` of a deep link or install referrer)
    /// for `appUserId`. A click also names its code, and records which tap brought the user.
    @discardableResult
    public static func claim(clickId: String, appUserId: String) async throws -> ClaimResult {
        try await ToltState.current.configuredClient().claim(.click(clickId), appUserId: appUserId)
    }

    /// Claims the click or code in a link the app was opened with, for `appUserId`: a deep link of the program's
    /// template (such as `myapp://claim?tolt_code=SAM20&tolt_click=clk_…`), or the partner's link itself
    /// (`https://links.example.com/a/YOUR_PUBLIC_KEY/SAM20`), which the system hands the app when the edge's host is
    /// one of its universal-link (or App Link) domains.
    ///
    /// Reads `tolt_click` or `tolt_code` from the query, percent-decoded; the click wins when both are there. A
    /// parameter whose escapes are broken (`tolt_code=%ZZ`) is skipped, and a later valid one read. With neither, a
    /// link of the configured edge (its scheme, host and port, under its path) whose path is `/a/<your public
    /// key>/<code>` claims that code, percent-decoded (no click was recorded: the app opened instead of the page).
    ///
    /// - Returns: `nil`, without a request, for links that are not Tolt's: without `tolt_click` or `tolt_code`, and
    ///   not a link of the configured edge and key (another host, another public key, another path); otherwise
    ///   the claim's result.
    /// - Throws: ``ToltError/notConfigured`` for a link whose path ends `/a/<key>/<code>` before
    ///   ``configure(publicId:baseURL:)``, since only the configuration tells whether it is the edge's; and what
    ///   ``claim(code:appUserId:)`` throws.
    @discardableResult
    public static func claim(url: URL, appUserId: String) async throws -> ClaimResult? {
        if let target = ClaimTarget(url: url) {
            return try await ToltState.current.configuredClient().claim(target, appUserId: appUserId)
        }
        guard ClaimTarget.mayBeEdgeLink(url) else { return nil }
        let client = try ToltState.current.configuredClient()
        guard let target = ClaimTarget(link: url, edge: client.edge, publicId: client.publicId) else { return nil }
        return try await client.claim(target, appUserId: appUserId)
    }

    /// Claims the click or code in a Google Play install referrer, for apps that read it themselves (Play's
    /// Install Referrer API), such as Swift code shared with an Android build.
    ///
    /// The edge sends Android users without a deep-link template to Play with
    /// `referrer=tolt_code%3DSAM20%26tolt_click%3Dclk_…`; pass the referrer as the API gives it
    /// (`tolt_code=SAM20&tolt_click=clk_…`), still percent-encoded once, or encoded twice or three times by an ad
    /// network or link wrapper: while the text names neither parameter, it is decoded again, at most 3 times. The
    /// click wins when both are there; a parameter whose escapes are broken is skipped.
    ///
    /// - Returns: `nil`, without a request, for a referrer with neither `tolt_click` nor `tolt_code` (an
    ///   organic install, another campaign's referrer), as ``claim(url:appUserId:)`` does for links.
    @discardableResult
    public static func claim(installReferrer: String, appUserId: String) async throws -> ClaimResult? {
        guard let target = ClaimTarget(installReferrer: installReferrer) else { return nil }
        return try await ToltState.current.configuredClient().claim(target, appUserId: appUserId)
    }
}
