/// A response whose header values and body outlive the request: static text (``StaticText``), or memory from
/// ``HTTPResponder/allocate(_:)``. Nothing is copied on the way out.
struct HTTPResponse {
    var status: Int
    var contentType: StaticText?
    /// Every link answer is `no-store`, so that a browser never replays a redirect without asking (and counting).
    var cacheControl: StaticText? = .noStore
    /// `Vary`: what of the request the answer was chosen by (RFC 9110 §12.5.5). A link's answers name `User-Agent`,
    /// which picks the redirect or the page, and pages `Accept-Language`, which picks their words: `no-store` keeps
    /// shared caches out today, and this keeps one that ignores it (a CDN told to cache everything) from handing a
    /// phone's redirect to a desktop or a bot's page to a person.
    var vary: StaticText? = nil
    /// `Retry-After`: the link path's `503` before the first configuration is loaded.
    var retryAfter: StaticText? = nil
    /// The `Location` of a redirect.
    var location: UnsafeRawBufferPointer? = nil
    var body = UnsafeRawBufferPointer(start: nil, count: 0)
}

/// The token of a response held back until the click it reports is in the journal
/// (``HTTPResponder/hold(recording:)``).
struct HeldResponse {
    let index: Int
    let generation: UInt64
}

/// How a handler answers the one request it was given, whichever engine carries it.
///
/// Exactly one answer per request: ``send(_:)-(HTTPResponse)``, ``send(_:)-(APIResponse)``,
/// ``sendHeld(_:_:)`` after ``hold(recording:)``, or ``respondOnWorker(_:)``. Every method runs on the loop thread that
/// received the request.
protocol HTTPResponder {
    /// Memory that lives until the response is sent: for bodies and header values built per request. Zero bytes is
    /// a valid size.
    func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer

    /// Sends `response` now.
    func send(_ response: HTTPResponse)

    /// Sends a JSON API answer now; its headers and body are copied.
    func send(_ response: APIResponse)

    /// Holds this request's response until the loop writes its journal (once per loop iteration, for every click of
    /// that iteration), so no response reports a click that a crash could still lose. `click` is journaled in that
    /// write only if the request is still there: one that went away unanswered records nothing. The response is then
    /// given with ``sendHeld(_:_:)``; the engine sends it after the write, or a `503` if the write failed.
    func hold(recording click: StagedClick) -> HeldResponse

    /// Gives the response of a request held with ``hold(recording:)``; it goes out after the journal write.
    func sendHeld(_ held: HeldResponse, _ response: HTTPResponse)

    /// Computes the answer off the loop thread (it may block, say on the store) and sends it on the loop thread.
    /// If the client goes away meanwhile, the answer is dropped.
    func respondOnWorker(_ work: @escaping @Sendable () -> APIResponse)
}
