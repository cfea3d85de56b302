import Synchronization

/// A stand-in for RevenueCat's `Purchases`: `Purchases.shared.appUserID` is the current app user, which
/// `logIn(_:)` changes, as RevenueCat's does.
final class Purchases: Sendable {
    /// The one instance, as RevenueCat's.
    static let shared = Purchases()

    private let current = Mutex("$RCAnonymousID:0000000000000000000000000000000")

    /// The current app user id.
    var appUserID: String { current.withLock { $0 } }

    /// Makes `appUserID` the current app user.
    func logIn(_ appUserID: String) {
        current.withLock { $0 = appUserID }
    }
}
