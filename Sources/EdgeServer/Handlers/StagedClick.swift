import LinkCore

/// A click minted for a held link response and journaled only when that response goes out
/// (``HTTPResponder/hold(recording:)``): a request that goes away first (a client that resets its HTTP/2 stream, or
/// closes its connection, before the answer) leaves no click.
///
/// Every buffer lives in the request's memory (the click id and the address from ``HTTPResponder/allocate(_:)``, the
/// headers in the request), valid while the request is; the engine journals the click only for a request still there.
struct StagedClick {
    let clickID: UnsafeRawPointer
    let createdAt: Int64
    let platform: Platform
    let target: LinkTarget
    let userAgent: UnsafeRawBufferPointer
    let referer: UnsafeRawBufferPointer
    let ip: UnsafeRawBufferPointer
    /// A repeat tap (``RepeatTapTable``): `clickID` is the first tap's, journaled as a repeat frame.
    let isRepeat: Bool
}
