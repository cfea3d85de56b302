/// The operating-system family of a client, as link routing needs it.
///
/// Routing only cares where a person can install the app: the App Store
/// (`ios`), Google Play or another Android store (`android`), a computer
/// (`desktop`), or somewhere with neither (`other`). The family is therefore
/// coarser than an OS name and follows the store, not the kernel:
///
/// - `android` covers every Android-based system: phones, tablets, Android TV,
///   Wear OS, Fire OS, and in-app web views running on them.
/// - `ios` covers iOS and iPadOS: Safari, in-app browsers and CFNetwork app
///   clients on iPhone and iPad.
/// - `desktop` covers Windows, macOS, desktop Linux and ChromeOS.
/// - `other` covers the rest: Tizen, webOS and other TV systems, KaiOS and
///   feature phones, game consoles, watchOS, tvOS, and every bot.
///
/// ```swift
/// let platform = UserAgentClassifier.standard.classify(userAgent).platform
/// if platform == .android { /* send to Google Play */ }
/// ```
public enum Platform: String, Sendable, CaseIterable {
    /// iOS and iPadOS.
    case ios
    /// Every Android-based system, including Fire OS, Android TV and Wear OS.
    case android
    /// Windows, macOS, desktop Linux and ChromeOS.
    case desktop
    /// Anything else: TV systems, feature phones, consoles, watches, bots.
    case other
}

extension Platform {
    /// Whether the platform has an app store that a link can send a person to.
    ///
    /// Used to decide between a store redirect and the fallback page; a
    /// desktop or `other` client always gets the page with the code.
    public var hasMobileStore: Bool {
        switch self {
        case .ios, .android: return true
        case .desktop, .other: return false
        }
    }

    /// Parses a platform name as written in configuration and test data.
    ///
    /// Accepts the raw values (`ios`, `android`, `desktop`, `other`) in any
    /// ASCII case, so a hand-edited TSV with `iOS` still reads.
    ///
    /// ```swift
    /// Platform(name: "iOS") == .ios
    /// ```
    public init?(name: some StringProtocol) {
        var lowered = ""
        lowered.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            lowered.unicodeScalars.append(
                scalar.value >= 65 && scalar.value <= 90
                    ? Unicode.Scalar(scalar.value + 32)! : scalar)
        }
        self.init(rawValue: lowered)
    }
}
