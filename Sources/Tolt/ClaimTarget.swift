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

    /// The code of a link of the edge itself, `<edge>/a/<public key>/<code>` (a `/` after the code too, as the edge
    /// takes it), which the system hands the app when the link opens it directly (a universal link or App Link of the
    /// edge's host): the code percent-decoded. `nil` unless `url` has `edge`'s scheme, host (in any case) and port,
    /// lies under `edge`'s path, and names `publicId`; its query is not read (`?utm_source=…` is the marketer's).
    init?(link url: URL, edge: URL, publicId: String) {
        guard let link = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let base = URLComponents(url: edge, resolvingAgainstBaseURL: false),
            link.scheme?.lowercased() == base.scheme?.lowercased(), link.host?.lowercased() == base.host?.lowercased(),
            Self.effectivePort(link) == Self.effectivePort(base)
        else { return nil }
        var prefix = Substring(base.percentEncodedPath)
        while prefix.hasSuffix("/") { prefix = prefix.dropLast() }
        guard let (key, code) = Self.keyAndCode(inPath: Substring(link.percentEncodedPath), under: prefix),
            key == publicId
        else { return nil }
        self = .code(code)
    }

    /// The port a URL's components name, or its scheme's (`https://host:443` is `https://host`).
    private static func effectivePort(_ url: URLComponents) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }

    /// Whether `url`'s path ends as an edge link's does, `…/a/<key>/<code>`: a link that may be the edge's, which
    /// only a configuration can tell.
    static func mayBeEdgeLink(_ url: URL) -> Bool {
        guard let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath else {
            return false
        }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.last == "" { segments.removeLast() }
        let count = segments.count
        return count >= 3 && segments[count - 3] == "a" && !segments[count - 2].isEmpty && !segments[count - 1].isEmpty
    }

    /// The key and code, percent-decoded, of a percent-encoded path that is `prefix`, then `/a/<key>/<code>`, and at
    /// most one `/` more; `nil` for another path, an empty segment, or a segment that does not decode or still holds
    /// a `%` once decoded (the edge refuses one in a code).
    private static func keyAndCode(inPath path: Substring, under prefix: Substring) -> (String, String)? {
        guard path.hasPrefix(prefix + "/a/") else { return nil }
        var rest = path.dropFirst(prefix.count + 3)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 2, let key = String(segments[0]).removingPercentEncoding,
            let code = String(segments[1]).removingPercentEncoding, !key.isEmpty, !code.isEmpty, !code.contains("%")
        else { return nil }
        return (key, code)
    }

    /// The most times ``init(installReferrer:)`` percent-decodes a referrer looking for `tolt_click` or `tolt_code`.
    static let maximumReferrerDecodings = 3

    /// The click or code in a Google Play install referrer.
    ///
    /// The edge's Play redirect carries `referrer=tolt_code%3DSAM20%26tolt_click%3Dclk_…`; Play's Install
    /// Referrer API hands the app that value decoded once (`tolt_code=SAM20&tolt_click=clk_…`), some libraries pass
    /// it on still encoded, and an ad network or link wrapper that encoded the whole Play URL again leaves it encoded
    /// twice. All are read: while the text names neither parameter, it is decoded again, at most
    /// ``maximumReferrerDecodings`` times. `nil` for a referrer without either (an organic install's
    /// `utm_source=google-play&utm_medium=organic`), or with only empty or broken ones.
    init?(installReferrer: String) {
        var text = Substring(installReferrer.trimmingCharacters(in: .whitespacesAndNewlines))
        if text.hasPrefix("?") { text = text.dropFirst() }
        var decodings = 0
        while !Self.namesClickOrCode(text) {
            guard decodings < Self.maximumReferrerDecodings, let decoded = text.removingPercentEncoding,
                decoded != text
            else { return nil }
            text = Substring(decoded)
            decodings += 1
        }
        self.init(query: text)
    }

    /// The first non-empty `tolt_click`, else the first non-empty `tolt_code`, of a percent-encoded query
    /// (`a=1&b=2`). Names and values are percent-decoded; a `+` stays a `+` (codes may hold one, and the edge
    /// encodes it as `%2B`).
    ///
    /// A pair whose escapes are broken is skipped, and a later one read: one that does not decode (`%ZZ`, or
    /// `%E2%28`, which is not UTF-8), and one whose value still holds a `%` once decoded. No code or click id holds a
    /// `%` (the edge refuses one in a code; a click id is base64url), and `URL` re-encodes a broken escape it is
    /// given (`?tolt_code=%ZZ` reads back as `%25ZZ`), so that is how a broken escape in a deep link arrives here.
    init?(query: Substring) {
        var code: String?
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let name = String(parts[0]).removingPercentEncoding,
                let value = String(parts[1]).removingPercentEncoding, !value.isEmpty, !value.contains("%")
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

    /// Whether a pair of `query` is named `tolt_click` or `tolt_code` (percent-decoded), whatever its value.
    private static func namesClickOrCode(_ query: Substring) -> Bool {
        query.split(separator: "&", omittingEmptySubsequences: true).contains { pair in
            let name = String(pair.prefix { $0 != "=" }).removingPercentEncoding
            return name == clickParameter || name == codeParameter
        }
    }
}
