import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The link path, `GET` and `HEAD /a/<public_key>/<code>`: one per loop thread, with that loop's journal writer,
/// copy of the link table, User-Agent cache and random pool, used only on that thread.
///
/// It touches no database and allocates only through its responder (the engine's per-request memory), except
/// when trusted proxies are configured and a tap came through one (``ClientAddress``), and when a desktop tap finds
/// its link's QR code not yet drawn on this loop (``QRCodeCache``: libqrencode allocates, once per link).
final class LinkHandler {
    let application: EdgeApplication
    /// Copied out of the application once, so that a tap does not copy the configuration or the pages to read them.
    private let trustedProxies: TrustedProxies
    /// `--public-url`'s bytes: the only source of a link's absolute URL (never the request's `Host`).
    private let publicURL: [UInt8]?
    private let pages: Pages
    private let signer: ClickSigner
    private let journal: JournalWriter
    private let random = RandomPool()
    private let userAgents: UserAgentCache
    /// The QR codes this loop drew for desktop fallback pages; `nil` without `--public-url` (no absolute URL to
    /// encode).
    private let qrCodes: QRCodeCache?
    /// This loop's first taps within `--dedupe-window`; `nil` when repeat taps are off.
    private let repeatTaps: RepeatTapTable?
    /// This loop's count of link requests, for the load gauge.
    private let linkRequests: LoadGauge.Counter
    /// This loop's metrics: what each link request was answered with, and who asked.
    private let metrics: LoopMetrics
    private var table: LinkTable
    private var generation: UInt64

    init(application: EdgeApplication, loop index: Int) {
        self.application = application
        trustedProxies = application.configuration.trustedProxies
        publicURL = application.configuration.publicURL?.bytes
        pages = application.pages
        signer = application.signer
        journal = application.journal.makeWriter(stream: index)
        userAgents = UserAgentCache(classifier: application.classifier)
        qrCodes = publicURL.map { QRCodeCache(publicURL: $0) }
        let configuration = application.configuration
        repeatTaps =
            configuration.repeatTapWindow > 0
            ? RepeatTapTable(visitors: configuration.repeatTapVisitors, window: configuration.repeatTapWindow) : nil
        linkRequests = application.load.counters[index]
        metrics = application.metrics.loops[index]
        generation = application.watcher.generation
        table = application.watcher.table
    }

    /// Stages the click of a held response whose request is still there, for the next ``writeClicks()``.
    func stage(_ click: StagedClick) {
        journal.append(
            clickID: click.clickID, createdAt: click.createdAt, platform: click.platform, target: click.target,
            userAgent: click.userAgent, referer: click.referer, ip: click.ip, isRepeat: click.isRepeat)
    }

    /// Writes the clicks staged since the last call, in one `write(2)`, and says whether they were written, or why
    /// not (their held responses must then not report them as recorded). The engine calls it before sending held
    /// responses.
    func writeClicks() -> JournalFlushOutcome { journal.flushOutcome() }

    /// Seals this loop's journal segment once its clicks are stored and it idles, or once it is old
    /// (``JournalWriter/sealIfDue(at:)``), so that no click's address and User-Agent linger on disk. The engine calls it
    /// after every event-loop iteration, with or without requests; `now` is ``Clock/monotonicSeconds()``.
    func sealJournalIfDue(at now: Double) { journal.sealIfDue(at: now) }

    /// Seals the journal: called as the loop exits.
    func close() { journal.close() }

    /// The most bytes of a code the path may decode to: the longest code typed in its widest form (4 bytes a
    /// character, a math-bold letter for an ASCII one) with whitespace pasted around it. A code that long can only
    /// match after the miss (``LinkTable/matchAfterMiss(publicKey:lowercasedCode:)``), trimmed and folded, as a claim
    /// of the same text does; on the stack, so a hit costs what it did.
    static let typedCodeCapacity = 4 * CodeRules.maximumLength + 64

    /// Answers a link request; `rest` is the path after `/a/`.
    func handle<Responder: HTTPResponder>(
        _ request: HTTPRequest, rest: UnsafeRawBufferPointer, to responder: Responder
    ) {
        linkRequests.count.wrappingAdd(1, ordering: .relaxed)
        // <key>/<code>, with one trailing slash allowed.
        var end = rest.count
        if end > 0 && rest[end - 1] == 0x2F { end -= 1 }
        guard let slash = rest[..<end].firstIndex(of: 0x2F), slash > 0, slash + 1 < end else {
            return sendNotFound(request, to: responder)
        }
        let encodedKey = UnsafeRawBufferPointer(rebasing: rest[..<slash])
        let encodedCode = UnsafeRawBufferPointer(rebasing: rest[(slash + 1)..<end])
        withUnsafeTemporaryAllocation(byteCount: Self.typedCodeCapacity + KeyRules.maximumLength, alignment: 8) {
            memory in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: memory[..<Self.typedCodeCapacity])
            // The key is decoded as the code is (RFC 3986: `%70k_acme` is `pk_acme`), only when it holds a `%`.
            let keyScratch = UnsafeMutableRawBufferPointer(rebasing: memory[Self.typedCodeCapacity...])
            guard let publicKey = PercentEncoding.decodedSegment(encodedKey, scratch: keyScratch),
                let length = PercentEncoding.decodeSegment(encodedCode, into: buffer)
            else {
                return sendNotFound(request, to: responder)
            }
            for index in 0..<length { buffer[index] = ASCII.lowercased(buffer[index]) }
            refreshTable()
            // Generation 0: no configuration loaded yet (a store down since start-up). Not a 404: the code may well
            // exist, and the client should come back.
            guard generation != 0 else { return sendNoConfiguration(to: responder) }
            let code = UnsafeRawBufferPointer(rebasing: buffer[..<length])
            // A miss is probed again (a zero-width space pasted with the code, `ＳＡＭ２０` typed), as claims are.
            let match =
                table.match(publicKey: publicKey, lowercasedCode: code)
                ?? table.matchAfterMiss(publicKey: publicKey, lowercasedCode: code)
            guard case .target? = match else {
                return sendDeadEnd(request, publicKey: publicKey, lowercasedCode: code, to: responder)
            }
            let userAgent = request.header(.userAgent)
            var caller = UserAgentClass(label: .bot, platform: .other)
            let (decision, recordsClick) = LinkDecision.decide(match: match, isHead: request.method == .head) {
                caller = userAgents.classify(userAgent)
                metrics.visitor(caller.label)
                return caller
            }
            answer(
                request, decision, recordsClick: recordsClick, platform: caller.platform, userAgent: userAgent,
                to: responder)
        }
    }

    /// Answers `GET` or `HEAD` of an association file from the link table in force: `200` with the file's bytes
    /// (copied into the answer, as a reload may free the table's while the answer is still being sent),
    /// `404` in the API's error shape, as an unknown path, when no program lists an app of that kind, and `503` before
    /// the first configuration, as a link.
    func handleAssociation<Responder: HTTPResponder>(
        _ request: HTTPRequest, _ kind: AppAssociationFiles.Kind, to responder: Responder
    ) {
        refreshTable()
        guard generation != 0 else { return sendNoConfiguration(to: responder) }
        let association = application.associationFiles.association(for: table)
        let file = kind == .apple ? association.appleAppSiteAssociation : association.assetLinks
        guard let file else {
            let shown = String(decoding: request.path.prefix(200), as: UTF8.self)
            return responder.send(APIResponse.error(.notFound("No such path: \(shown)")))
        }
        // As an API answer, which carries `X-Content-Type-Options: nosniff` as every JSON answer does.
        responder.send(APIResponse(status: 200, body: file, cacheControl: AppAssociationFiles.cacheControl))
    }

    @inline(__always)
    private func answer<Responder: HTTPResponder>(
        _ request: HTTPRequest, _ decision: LinkDecision, recordsClick: Bool, platform: Platform,
        userAgent: UnsafeRawBufferPointer, to responder: Responder
    ) {
        @inline(__always) func record(_ target: LinkTarget) -> RecordedClick? {
            guard recordsClick else { return nil }
            return self.record(request, target: target, platform: platform, userAgent: userAgent, responder: responder)
        }
        switch decision {
        case .notFound:
            sendNotFound(request, to: responder)
        case .preview(let target):
            metrics.linkAnswered(.preview)
            let pages = pages.preferred(acceptLanguage: request.header(.acceptLanguage))
            responder.send(
                page(pages.preview, target: target, platform: .other, qrCode: nil, appLink: nil, responder: responder))
        case .redirect(let target, let chunks):
            metrics.linkAnswered(.redirect)
            let click = record(target)
            send(redirect(chunks: chunks, clickID: click?.id, responder: responder), after: click, to: responder)
        case .play(let target, let prefix):
            metrics.linkAnswered(.play)
            let click = record(target)
            send(redirect(prefix: prefix, clickID: click?.id, responder: responder), after: click, to: responder)
        case .page(let target):
            metrics.linkAnswered(.page)
            let click = record(target)
            let pages = pages.preferred(acceptLanguage: request.header(.acceptLanguage))
            // A desktop cannot install the app: its page offers the link to a phone. Rendered once per link and
            // loop (QRCodeCache); the bytes are copied into the page before the cache is used again.
            let qrCode = platform == .desktop ? qrCodes?.svg(for: target, generation: generation) : nil
            // A template here is one a desktop is not sent to (LinkDecision); the page carries it for an iPad.
            let appLink = target.redirectChunks.map { AppLink(chunks: $0, clickID: click?.id) }
            let response = page(
                pages.fallback, target: target, platform: platform, qrCode: qrCode, appLink: appLink,
                responder: responder)
            send(response, after: click, to: responder)
        }
    }

    /// Sends a response now, or, when it reports a click, once the click is written.
    @inline(__always)
    private func send<Responder: HTTPResponder>(
        _ response: HTTPResponse, after click: RecordedClick?, to responder: Responder
    ) {
        if let click { responder.sendHeld(click.held, response) } else { responder.send(response) }
    }

    /// The not-found page in the language the request prefers; it is the same for every User-Agent.
    private func sendNotFound<Responder: HTTPResponder>(_ request: HTTPRequest, to responder: Responder) {
        metrics.linkAnswered(.notFound)
        let pages = pages.preferred(acceptLanguage: request.header(.acceptLanguage))
        responder.send(
            HTTPResponse(status: 404, contentType: .html, vary: .acceptLanguage, body: pages.notFound.bytes))
    }

    /// The `404` of a link whose code leads to no active code (unknown, inactive, of an inactive partner, shared by
    /// two active partners). When the link table can tell which program the link was for
    /// (``LinkTable/deadEndProgram(publicKey:lowercasedCode:)``: the stored code's, else the organization's only
    /// one), the page carries that program's icon, name, colour and store badges, chosen for the caller's platform as
    /// on the fallback page, so a person holding an old post still reaches the app; otherwise the generic page.
    ///
    /// Still a `404` (a monitor or marketer sees the code is dead), with no redirect, no install referrer, no code and
    /// no click. Everyone, a preview fetcher and a `HEAD` too, gets this page, as they got the generic one: a card
    /// should not be drawn for a dead code. The User-Agent is classified (through this loop's cache) only for a
    /// branded page, whose badges follow it, and then named in `Vary`; nothing here reads the store.
    @inline(never)
    private func sendDeadEnd<Responder: HTTPResponder>(
        _ request: HTTPRequest, publicKey: UnsafeRawBufferPointer, lowercasedCode code: UnsafeRawBufferPointer,
        to responder: Responder
    ) {
        guard let program = table.deadEndProgram(publicKey: publicKey, lowercasedCode: code) else {
            return sendNotFound(request, to: responder)
        }
        metrics.linkAnswered(.notFound)
        let platform = userAgents.classify(request.header(.userAgent)).platform
        let page = pages.preferred(acceptLanguage: request.header(.acceptLanguage)).notFoundBranded
        let showsAppStore = !(platform == .android && program.record.googlePlayURL != nil)
        let showsGooglePlay = !(platform == .ios && program.record.appStoreURL != nil)
        let capacity = page.maximumLength { field in
            switch field {
            case .appName: return program.displayName.utf8.count
            case .appIconURL: return program.record.appIconURL?.utf8.count ?? 0
            case .brandColor: return program.record.brandColor?.utf8.count ?? 0
            case .appStoreURL: return program.record.appStoreURL?.utf8.count ?? 0
            case .googlePlayURL: return program.record.googlePlayURL?.utf8.count ?? 0
            default: return 0
            }
        }
        let memory = responder.allocate(capacity)
        var writer = ByteWriter(base: memory, capacity: capacity)
        page.render(into: &writer) { field, out in
            switch field {
            case .appName: out.write(program.displayName.utf8)
            case .appIconURL:
                guard let url = program.record.appIconURL else { return false }
                out.write(url.utf8)
            case .brandColor:
                guard let color = program.record.brandColor else { return false }
                out.write(color.utf8)
            case .appStoreURL:
                guard showsAppStore, let url = program.record.appStoreURL else { return false }
                out.write(url.utf8)
            case .googlePlayURL:
                guard showsGooglePlay, let url = program.record.googlePlayURL else { return false }
                out.write(url.utf8)
            // No code, partner or link on a dead link's page: nothing to copy, nothing to share onward.
            default: return false
            }
            return true
        }
        responder.send(
            HTTPResponse(
                status: 404, contentType: .html, vary: .acceptLanguageAndUserAgent,
                body: UnsafeRawBufferPointer(start: memory, count: writer.count)))
    }

    /// `503 {"error":"unavailable"}` with `Retry-After`, from static bytes: the node has no configuration yet.
    private func sendNoConfiguration<Responder: HTTPResponder>(to responder: Responder) {
        responder.send(
            HTTPResponse(
                status: 503, contentType: .json, retryAfter: Self.retryAfter, body: Self.noConfiguration.bytes))
    }

    private static let retryAfter = StaticText("5")
    static let noConfiguration = StaticText(
        #"{"success":false,"message":"This node has not loaded its configuration yet; try again shortly","error":"unavailable"}"#
            + "\n")

    /// Takes a new link table when the watcher swapped one in: one atomic load per call.
    @inline(__always)
    private func refreshTable() {
        let current = application.watcher.generation
        if current != generation {
            generation = current
            table = application.watcher.table
        }
    }

    /// A click id minted into the request's memory and staged in the journal, and the hold on the response that
    /// will report it.
    private struct RecordedClick {
        let id: UnsafeRawBufferPointer
        let held: HeldResponse
    }

    /// Mints a click id, or takes the first tap's for a repeat tap, and holds the response; the click (or repeat)
    /// goes into the journal with the response, if the request is still there then.
    @inline(__always)
    private func record<Responder: HTTPResponder>(
        _ request: HTTPRequest, target: LinkTarget, platform: Platform, userAgent: UnsafeRawBufferPointer,
        responder: Responder
    ) -> RecordedClick {
        let address = UnsafeMutableRawBufferPointer(
            start: responder.allocate(ClientAddress.maximumLength), count: ClientAddress.maximumLength)
        let ipLength = ClientAddress.write(of: request, trusting: trustedProxies, into: address)
        let ip = UnsafeRawBufferPointer(rebasing: address[..<ipLength])
        let id = responder.allocate(ClickID.encodedLength)
        var isRepeat = false
        if let repeatTaps {
            // The User-Agent as far as the journal keeps it (its first 512 bytes), so that this loop and the ingester,
            // which keys the stored click, take the same taps for one visitor.
            let keptAgent = UnsafeRawBufferPointer(
                rebasing: userAgent.prefix(ClickRecord.maximumUserAgentLength))
            let key = RepeatTapTable.key(reference: target.reference, address: ip, userAgent: keptAgent)
            if let first = repeatTaps.firstTap(key: key, reference: target.reference, at: request.receivedAt) {
                // Copied: a later tap of this iteration may take the slot before this response goes out.
                id.copyMemory(from: first, byteCount: ClickID.encodedLength)
                isRepeat = true
            } else {
                mint(request, target: target, into: id)
                repeatTaps.remember(key: key, reference: target.reference, at: request.receivedAt, clickID: id)
            }
        } else {
            mint(request, target: target, into: id)
        }
        let click = StagedClick(
            clickID: id, createdAt: request.receivedAt, platform: platform, target: target, userAgent: userAgent,
            referer: request.header(.referer), ip: ip, isRepeat: isRepeat)
        return RecordedClick(
            id: UnsafeRawBufferPointer(start: id, count: ClickID.encodedLength), held: responder.hold(recording: click))
    }

    @inline(__always)
    private func mint(_ request: HTTPRequest, target: LinkTarget, into id: UnsafeMutableRawPointer) {
        signer.mint(
            timestampMilliseconds: UInt64(request.receivedAt), codeReference: target.reference,
            random: random.nextValue(), into: id)
    }

    /// A 302 to the template, the click id (empty without a click) at each `{click_id}`.
    private func redirect<Responder: HTTPResponder>(
        chunks: [[UInt8]], clickID: UnsafeRawBufferPointer?, responder: Responder
    ) -> HTTPResponse {
        let link = AppLink(chunks: chunks, clickID: clickID)
        let memory = responder.allocate(link.length)
        var writer = ByteWriter(base: memory, capacity: link.length)
        link.forEachPiece { writer.write($0) }
        return Self.redirect(to: UnsafeRawBufferPointer(start: memory, count: writer.count))
    }

    /// A 302 to Google Play, the click id (empty without a click) ending the referrer.
    private func redirect<Responder: HTTPResponder>(
        prefix: [UInt8], clickID: UnsafeRawBufferPointer?, responder: Responder
    ) -> HTTPResponse {
        let clickID = clickID ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let length = prefix.count + clickID.count
        let memory = responder.allocate(length)
        var writer = ByteWriter(base: memory, capacity: length)
        writer.write(prefix)
        writer.write(clickID)
        return Self.redirect(to: UnsafeRawBufferPointer(start: memory, count: writer.count))
    }

    /// No body, so no `Content-Type`: one header less to build and send per tap. Another User-Agent may be sent
    /// elsewhere (a desktop to a page), so the redirect varies by it.
    @inline(__always)
    private static func redirect(to location: UnsafeRawBufferPointer) -> HTTPResponse {
        HTTPResponse(status: 302, contentType: nil, vary: .userAgent, location: location)
    }

    /// Renders a page for a code into the request's memory: every value is HTML-escaped on the way, except the QR
    /// code's SVG, which the server drew. The link's own URL (`link_url`) is there only with `--public-url`, the QR
    /// code only for a desktop's fallback page, and the branding values only when the program set them
    /// (``ProgramSettings`` dropped any that break ``BrandingRules``). A phone is shown only its own store's badge
    /// when the program has that store's URL (an iPhone cannot install from Google Play); otherwise, and on other
    /// platforms, every store the program has.
    private func page<Responder: HTTPResponder>(
        _ page: borrowing PageTemplate, target: LinkTarget, platform: Platform, qrCode: UnsafeRawBufferPointer?,
        appLink: AppLink?, responder: Responder
    ) -> HTTPResponse {
        // Fields read through the program's settings (a class), not a copy of its record: a copy retained every
        // string and list of the record for each page.
        let settings = target.program
        let showsAppStore = !(platform == .android && settings.record.googlePlayURL != nil)
        let showsGooglePlay = !(platform == .ios && settings.record.appStoreURL != nil)
        let capacity = page.maximumLength { field in
            switch field {
            case .code: return target.code.utf8.count
            case .partnerName: return target.partnerName.utf8.count
            case .programName: return settings.record.name.utf8.count
            case .organizationName: return target.program.organizationName.utf8.count
            case .appStoreURL: return settings.record.appStoreURL?.utf8.count ?? 0
            case .googlePlayURL: return settings.record.googlePlayURL?.utf8.count ?? 0
            case .linkURL: return (publicURL?.count ?? 0) + target.linkPath.count
            case .appName: return target.program.displayName.utf8.count
            case .appIconURL: return settings.record.appIconURL?.utf8.count ?? 0
            case .brandColor: return settings.record.brandColor?.utf8.count ?? 0
            case .brandTextColor: return target.program.brandTextColor?.utf8.count ?? 0
            case .brandEdgeColor: return target.program.brandEdgeColors?.light.utf8.count ?? 0
            case .brandDarkEdgeColor: return target.program.brandEdgeColors?.dark.utf8.count ?? 0
            case .ogImageURL: return settings.record.ogImageURL?.utf8.count ?? 0
            case .ogDescription: return settings.record.ogDescription?.utf8.count ?? 0
            case .qrSVG: return qrCode?.count ?? 0
            case .appLink: return appLink?.length ?? 0
            }
        }
        let memory = responder.allocate(capacity)
        var writer = ByteWriter(base: memory, capacity: capacity)
        page.render(into: &writer) { field, out in
            switch field {
            case .code: out.write(target.code.utf8)
            case .partnerName: out.write(target.partnerName.utf8)
            case .programName: out.write(settings.record.name.utf8)
            case .organizationName: out.write(target.program.organizationName.utf8)
            case .appStoreURL:
                guard showsAppStore, let url = settings.record.appStoreURL else { return false }
                out.write(url.utf8)
            case .googlePlayURL:
                guard showsGooglePlay, let url = settings.record.googlePlayURL else { return false }
                out.write(url.utf8)
            case .linkURL:
                guard let publicURL else { return false }
                out.write(publicURL)
                out.write(target.linkPath)
            case .appName: out.write(target.program.displayName.utf8)
            case .appIconURL:
                guard let url = settings.record.appIconURL else { return false }
                out.write(url.utf8)
            case .brandColor:
                guard let color = settings.record.brandColor else { return false }
                out.write(color.utf8)
            case .brandTextColor:
                guard let color = target.program.brandTextColor else { return false }
                out.write(color.utf8)
            case .brandEdgeColor:
                guard let colors = target.program.brandEdgeColors else { return false }
                out.write(colors.light.utf8)
            case .brandDarkEdgeColor:
                guard let colors = target.program.brandEdgeColors else { return false }
                out.write(colors.dark.utf8)
            case .ogImageURL:
                guard let url = settings.record.ogImageURL else { return false }
                out.write(url.utf8)
            case .ogDescription:
                guard let text = settings.record.ogDescription else { return false }
                out.write(text.utf8)
            case .qrSVG:
                guard let qrCode else { return false }
                out.writeMarkup(qrCode)
            case .appLink:
                guard let appLink else { return false }
                appLink.forEachPiece { out.write($0) }
            }
            return true
        }
        // The language picks the words, and the User-Agent the page: a preview for a fetcher, else a fallback page
        // with the caller's badges and, for a desktop, the QR code.
        return HTTPResponse(
            status: 200, contentType: .html, vary: .acceptLanguageAndUserAgent,
            body: UnsafeRawBufferPointer(start: memory, count: writer.count))
    }
}

/// The deep-link template filled in for one tap: its chunks (`{code}` already in them) with the click id, empty
/// without a click, at each `{click_id}` between them.
struct AppLink {
    let chunks: [[UInt8]]
    let clickID: UnsafeRawBufferPointer

    init(chunks: [[UInt8]], clickID: UnsafeRawBufferPointer?) {
        self.chunks = chunks
        self.clickID = clickID ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    var length: Int {
        var length = clickID.count * (chunks.count - 1)
        for chunk in chunks { length += chunk.count }
        return length
    }

    /// Hands `write` the link's pieces in order: a `Location` header's writer takes them as they are, a page's
    /// escaping one HTML-escapes them.
    @inline(__always)
    func forEachPiece(_ write: (UnsafeRawBufferPointer) -> Void) {
        for (position, chunk) in chunks.enumerated() {
            if position > 0 { write(clickID) }
            chunk.withUnsafeBytes(write)
        }
    }
}
