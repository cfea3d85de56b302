import Foundation

/// What a claim names: a partner's code, or a click on a partner's link (which also names its code).
///
/// The app gets them as `tolt_click` and `tolt_code` in a deep link's query (the program's deep-link template)
/// or in a Google Play install referrer. When both are there the click wins, as on the edge: it records which
/// tap brought the user.
enum ClaimTarget: Sendable, Equatable {
    case code(String)
    case click(String)

    /// The query parameter names the edge writes into deep links and install referrers.
    static let clickParameter = "tolt_click"
    static let codeParameter = "tolt_code"

    /// The click or code in `url`'s query, percent-decoded; `nil` when it has neither (or only empty ones).
    init?(url: URL) {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else {
            return nil
        }
        self.init(query: Substring(query))
    }

    /// The click or code in a Google Play install referrer.
    ///
    /// The edge's Play redirect carries `referrer=tolt_code%3DSAM20%26tolt_click%3Dclk_…`; Play's Install
    /// Referrer API hands the app that value decoded once (`tolt_code=SAM20&tolt_click=clk_…`), and some
    /// libraries pass it on still encoded. Both are read: when the text as it is has neither parameter, it is
    /// decoded once and read again. `nil` for a referrer without either (an organic install's
    /// `utm_source=google-play&utm_medium=organic`).
    init?(installReferrer: String) {
        var text = Substring(installReferrer.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.hasPrefix("?") { text = text.dropFirst() }
        if let target = ClaimTarget(query: text) {
            self = target
        } else if let decoded = String(text).removingPercentEncoding, decoded != String(text),
            let target = ClaimTarget(query: Substring(decoded))
        {
            self = target
        } else {
            return nil
        }
    }

    /// The first non-empty `tolt_click`, else the first non-empty `tolt_code`, of a percent-encoded query
    /// (`a=1&b=2`). Names and values are percent-decoded; a `+` stays a `+` (codes may hold one, and the edge
    /// encodes it as `%2B`). A pair whose escapes are broken is skipped.
    init?(query: Substring) {
        var code: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = String(parts[0]).removingPercentEncoding,
                let value = String(parts[1]).removingPercentEncoding, !value.isEmpty
            else { continue }
            if name == Self.clickParameter {
                self = .click(value)
                return
            }
            if name == Self.codeParameter, code == nil { code = value }
        }
        guard let code else { return nil }
        self = .code(code)
    }
}
