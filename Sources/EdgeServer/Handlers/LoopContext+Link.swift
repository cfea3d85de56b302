internal import CH2O
import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The link path: `GET` and `HEAD /a/<public_key>/<code>`. Runs on the loop thread, touches no database,
/// and allocates only in the request's pool.
extension LoopContext {
    func handleLink(_ request: UnsafeMutablePointer<h2o_req_t>, rest: UnsafeRawBufferPointer) {
        linkRequests.count.wrappingAdd(1, ordering: .relaxed)
        let method = request.pointee.method
        let isGet = method.len == 3 && memcmp(method.base, "GET", 3) == 0
        let isHead = method.len == 4 && memcmp(method.base, "HEAD", 4) == 0
        guard isGet || isHead else {
            addHeader(request, tokens.allow, LinkPages.allowed.pointer, LinkPages.allowed.length)
            respond(request, APIResponse.error(.methodNotAllowed("GET, HEAD")))
            return
        }
        // <key>/<code>, with one trailing slash allowed.
        var end = rest.count
        if end > 0 && rest[end - 1] == 0x2F { end -= 1 }
        guard let slash = rest[..<end].firstIndex(of: 0x2F), slash > 0, slash + 1 < end else {
            return respondNotFound(request)
        }
        let publicKey = UnsafeRawBufferPointer(rebasing: rest[..<slash])
        let encodedCode = UnsafeRawBufferPointer(rebasing: rest[(slash + 1)..<end])
        withUnsafeTemporaryAllocation(byteCount: CodeRules.maximumLength, alignment: 8) { buffer in
            guard let length = PercentEncoding.decodeSegment(encodedCode, into: buffer) else {
                return respondNotFound(request)
            }
            for index in 0..<length { buffer[index] = ASCII.lowercased(buffer[index]) }
            refreshTable()
            let match = table.match(
                publicKey: publicKey, lowercasedCode: UnsafeRawBufferPointer(rebasing: buffer[..<length]))
            guard case .target(let target)? = match else { return respondNotFound(request) }
            let userAgent = header(request, tokens.userAgent)
            let caller = userAgents.classify(userAgent)
            let (decision, recordsClick) = LinkDecision.decide(match: match, isHead: isHead, caller: caller)
            answer(
                request, target: target, decision: decision, recordsClick: recordsClick, caller: caller,
                userAgent: userAgent)
        }
    }

    private func answer(
        _ request: UnsafeMutablePointer<h2o_req_t>, target: LinkTarget, decision: LinkDecision, recordsClick: Bool,
        caller: UserAgentClass, userAgent: UnsafeRawBufferPointer
    ) {
        if decision == .preview { return respondPage(request, application.pages.preview, target: target) }
        if decision == .notFound { return respondNotFound(request) }
        var clickID = UnsafeRawBufferPointer(start: nil, count: 0)
        if recordsClick {
            clickID = recordClick(request, target: target, platform: caller.platform, userAgent: userAgent)
        }
        switch decision {
        case .deepLink:
            redirect(request, chunks: target.redirectChunks!, clickID: clickID)
        case .googlePlay:
            redirect(request, prefix: target.playPrefix!, clickID: clickID)
        default:
            respondPage(request, application.pages.fallback, target: target)
        }
    }

    /// Mints a click id in the request's pool and stages the click in the journal; the response this request
    /// sends next is held until the journal is written (``LoopContext/flushHeld()``).
    private func recordClick(
        _ request: UnsafeMutablePointer<h2o_req_t>, target: LinkTarget, platform: Platform,
        userAgent: UnsafeRawBufferPointer
    ) -> UnsafeRawBufferPointer {
        let id = h2o_mem_alloc_pool(&request.pointee.pool, ClickID.encodedLength)!
        let now = tolt_h2o_request_millis(request)
        application.signer.mint(
            timestampMilliseconds: UInt64(now), codeReference: target.reference, random: random.nextValue(), into: id)
        let referer = header(request, tokens.referer)
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { address in
            let ipLength = clientAddress(request, into: address)
            journal.append(
                clickID: id, createdAt: now, platform: platform, target: target, userAgent: userAgent,
                referer: referer, ip: UnsafeRawBufferPointer(rebasing: address[..<ipLength]))
        }
        holdNextResponse(request)
        return UnsafeRawBufferPointer(start: id, count: ClickID.encodedLength)
    }

    private func redirect(
        _ request: UnsafeMutablePointer<h2o_req_t>, chunks: [[UInt8]], clickID: UnsafeRawBufferPointer
    ) {
        var length = clickID.count * (chunks.count - 1)
        for chunk in chunks { length += chunk.count }
        let memory = h2o_mem_alloc_pool(&request.pointee.pool, max(length, 1))!
        var writer = ByteWriter(base: memory, capacity: length)
        for (position, chunk) in chunks.enumerated() {
            if position > 0 { writer.write(clickID) }
            writer.write(chunk)
        }
        sendRedirect(request, location: memory, length: writer.count)
    }

    private func redirect(_ request: UnsafeMutablePointer<h2o_req_t>, prefix: [UInt8], clickID: UnsafeRawBufferPointer)
    {
        let length = prefix.count + clickID.count
        let memory = h2o_mem_alloc_pool(&request.pointee.pool, length)!
        var writer = ByteWriter(base: memory, capacity: length)
        writer.write(prefix)
        writer.write(clickID)
        sendRedirect(request, location: memory, length: writer.count)
    }

    @inline(__always)
    private func sendRedirect(_ request: UnsafeMutablePointer<h2o_req_t>, location: UnsafeRawPointer, length: Int) {
        addHeader(request, tokens.location, location, length)
        // No body, so no Content-Type: one header less to build and send per tap.
        respond(
            request, status: 302, contentType: nil, body: UnsafeRawBufferPointer(start: nil, count: 0),
            bodyOutlivesRequest: true)
    }

    func respondNotFound(_ request: UnsafeMutablePointer<h2o_req_t>) {
        respond(
            request, status: 404, contentType: .html, body: application.pages.notFound.bytes, bodyOutlivesRequest: true)
    }

    /// Renders a page for a code into the request's pool: every value is HTML-escaped on the way.
    private func respondPage(_ request: UnsafeMutablePointer<h2o_req_t>, _ page: PageTemplate, target: LinkTarget) {
        let authority = request.pointee.authority
        let host = UnsafeRawBufferPointer(start: authority.base, count: min(authority.len, 255))
        let scheme = request.pointee.scheme.pointee.name
        let schemeBytes = UnsafeRawBufferPointer(start: scheme.base, count: scheme.len)
        let program = target.program.record
        let capacity = page.maximumLength { field in
            switch field {
            case .code: return target.code.utf8.count
            case .partnerName: return target.partnerName.utf8.count
            case .programName: return program.name.utf8.count
            case .organizationName: return target.program.organizationName.utf8.count
            case .appStoreURL: return program.appStoreURL?.utf8.count ?? 0
            case .googlePlayURL: return program.googlePlayURL?.utf8.count ?? 0
            case .linkURL: return schemeBytes.count + host.count + target.linkPath.count + 3
            }
        }
        let memory = h2o_mem_alloc_pool(&request.pointee.pool, capacity)!
        var writer = ByteWriter(base: memory, capacity: capacity)
        page.render(into: &writer) { field, out in
            switch field {
            case .code: out.write(target.code.utf8)
            case .partnerName: out.write(target.partnerName.utf8)
            case .programName: out.write(program.name.utf8)
            case .organizationName: out.write(target.program.organizationName.utf8)
            case .appStoreURL:
                guard let url = program.appStoreURL else { return false }
                out.write(url.utf8)
            case .googlePlayURL:
                guard let url = program.googlePlayURL else { return false }
                out.write(url.utf8)
            case .linkURL:
                out.write(schemeBytes)
                out.write("://".utf8)
                out.write(host)
                out.write(target.linkPath)
            }
            return true
        }
        respond(
            request, status: 200, contentType: .html, body: UnsafeRawBufferPointer(start: memory, count: writer.count),
            bodyOutlivesRequest: true)
    }
}

/// Fixed texts of the link path.
enum LinkPages {
    static let allowed = StaticText("GET, HEAD")
}
