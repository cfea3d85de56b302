/// What the edge answers to `GET` or `HEAD /a/<public_key>/<code>`, with what that answer needs.
public enum LinkDecision: Sendable {
    /// 404 page, no click: unknown or inactive key or code, or a code two partners share.
    case notFound
    /// 200 page with Open Graph tags for the code, no click: a preview fetcher, or any `HEAD`.
    case preview(LinkTarget)
    /// 302 to the program's deep-link template: `chunks` is the template with `{code}` filled in, split at each
    /// `{click_id}`. Not for a desktop when the template is a scheme only the app opens (it gets the page).
    case redirect(LinkTarget, chunks: [[UInt8]])
    /// 302 to Google Play with the install referrer: `prefix` is the URL up to the click id.
    case play(LinkTarget, prefix: [UInt8])
    /// 200 page with the code, a copy button and the store badges.
    case page(LinkTarget)

    /// Decides the answer, and whether a click is recorded, from the match, the method and the caller. `caller` is
    /// asked only when the code matched, so a 404 costs no User-Agent classification.
    ///
    /// Other bots get the same answer a person would, so link checkers see what people see, but no click. A desktop
    /// is not sent to a template that only the app opens (`myapp://…`): the app is on phones, and a desktop browser
    /// would show an error or nothing; it gets the page with the code and the link's QR code, for a phone to scan.
    @inline(__always)
    public static func decide(
        match: LinkTable.Match?, isHead: Bool, caller: () -> UserAgentClass
    ) -> (decision: LinkDecision, recordsClick: Bool) {
        guard case .target(let target)? = match else { return (.notFound, false) }
        let caller = caller()
        if isHead || caller.label == .preview { return (.preview(target), false) }
        let recordsClick = caller.label == .human
        if let chunks = target.redirectChunks, target.redirectsDesktops || caller.platform != .desktop {
            return (.redirect(target, chunks: chunks), recordsClick)
        }
        if let prefix = target.playPrefix, caller.platform == .android {
            return (.play(target, prefix: prefix), recordsClick)
        }
        return (.page(target), recordsClick)
    }
}
