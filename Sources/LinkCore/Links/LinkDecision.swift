/// What the edge answers to `GET` or `HEAD /a/<public_key>/<code>`.
public enum LinkDecision: Sendable, Equatable {
    /// 404 page, no click: unknown or inactive key or code, or a code two partners share.
    case notFound
    /// 200 page with Open Graph tags, no click: a preview fetcher, or any `HEAD`.
    case preview
    /// 302 to the deep-link template.
    case deepLink
    /// 302 to Google Play with the install referrer.
    case googlePlay
    /// 200 page with the code, a copy button and the store badges.
    case fallback

    /// Decides the answer, and whether a click is recorded, from the match, the method and the caller.
    ///
    /// Other bots get the same answer a person would, so link checkers see what people see, but no click.
    public static func decide(
        match: LinkTable.Match?, isHead: Bool, caller: UserAgentClass
    ) -> (decision: LinkDecision, recordsClick: Bool) {
        guard case .target(let target)? = match else { return (.notFound, false) }
        if isHead || caller.label == .preview { return (.preview, false) }
        let recordsClick = caller.label == .human
        if target.redirectChunks != nil { return (.deepLink, recordsClick) }
        if target.playPrefix != nil && caller.platform == .android { return (.googlePlay, recordsClick) }
        return (.fallback, recordsClick)
    }
}
