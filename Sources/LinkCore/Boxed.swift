/// A value behind a reference, for a `Mutex` that holds a closure.
///
/// A `Mutex` holding a closure itself wraps it in one more reabstraction thunk at every `withLock` that reads it
/// (the `inout` writeback), so a value read on every request or scrape grows a chain that, released, overflows the
/// stack: `/metrics` leaked so and crashed the server at stop after some 100,000 scrapes. Held in a `Boxed`, the
/// closure is read as a reference and never rewrapped.
public final class Boxed<Value: Sendable>: Sendable {
    public let value: Value

    public init(_ value: Value) { self.value = value }
}
