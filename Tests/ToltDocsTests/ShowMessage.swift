import Synchronization

/// The messages ``showMessage(_:)`` showed, in order.
let shownMessages = Mutex<[String]>([])

/// A stand-in for an app's way of telling the user something: it records the message.
func showMessage(_ message: String) {
    shownMessages.withLock { $0.append(message) }
}
