/// What the edge answers to `GET` or `HEAD /a/<public_key>/<code>`, with what that answer needs.
public enum LinkDecision: Sendable {
    /// 404 page, no click: unknown or inactive key or code, or a code two partners share.
    case notFound
    /// 200 page with Open Graph tags for the code, no click: a preview fetcher, any `HEAD`, and another bot when a
    /// person would not be sent to a web address.
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
    /// Other bots are sent where a person goes only when that is a web address they can follow (a universal or app
    /// link's page), with no click; otherwise they get the preview. A template only the app opens (`myapp://…`) is
    /// nothing a crawler or link checker can read, and a link-preview fetcher the User-Agent rules do not know yet
    /// (it is taken for a plain bot) still draws a card from the preview, or from the web page it follows the
    /// redirect to. A desktop is not sent to a template that only the app opens: the app is on phones, and a
    /// desktop browser would show an error or nothing; it gets the page with the code and the link's QR code, for a
    /// phone to scan.
    @inline(__always)
    public static func decide(
        match: LinkTable.Match?, isHead: Bool, caller: () -> UserAgentClass
    ) -> (decision: LinkDecision, recordsClick: Bool) {
        guard case .target(let target)? = match else { return (.notFound, false) }
        let caller = caller()
        if isHead || caller.label == .preview { return (.preview(target), false) }
        guard caller.label == .human else {
            guard let chunks = target.redirectChunks, target.redirectsDesktops else { return (.preview(target), false) }
            return (.redirect(target, chunks: chunks), false)
        }
        if let chunks = target.redirectChunks, target.redirectsDesktops || caller.platform != .desktop {
            return (.redirect(target, chunks: chunks), true)
        }
        if let prefix = target.playPrefix, caller.platform == .android {
            return (.play(target, prefix: prefix), true)
        }
        return (.page(target), true)
    }
}
