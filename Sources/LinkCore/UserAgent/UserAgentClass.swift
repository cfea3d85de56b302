/// What kind of client sent a request, judged from its User-Agent.
///
/// The edge treats the three kinds differently: a `preview` fetcher gets a
/// small page with Open Graph tags and records no click, a `bot` gets the
/// same answer as a person but records no click, and only a `human` click is
/// journalled and credited to a partner.
public enum UserAgentLabel: String, Sendable, CaseIterable {
    /// A person's browser, in-app browser (Instagram, FBAN/FBAV, TikTok…) or app.
    case human
    /// A crawler, monitor, scanner, HTTP library, CLI, headless browser or
    /// feed reader; also an empty or missing User-Agent.
    case bot
    /// A link-preview fetcher that draws a card in a chat or social app
    /// (Slack, iMessage, WhatsApp, Discord, Teams, LinkedIn…).
    case preview
}

/// The verdict on one User-Agent: its label and its platform.
///
/// `platform` is the person's operating-system family for `human`. Bots are
/// always `.other`; preview fetchers are `.other` unless the fetch runs on the
/// sender's device and its User-Agent names the OS (WhatsApp's `… A` is
/// `.android`, `… i` is `.ios`).
///
/// ```swift
/// let verdict = UserAgentClassifier.standard.classify("Slackbot-LinkExpanding 1.0")
/// verdict == UserAgentClass(label: .preview, platform: .other)
/// ```
public struct UserAgentClass: Sendable, Equatable, Hashable {
    /// Person, bot or preview fetcher.
    public var label: UserAgentLabel
    /// Operating-system family, as routing needs it.
    public var platform: Platform

    /// Creates a verdict from its two parts.
    public init(label: UserAgentLabel, platform: Platform) {
        self.label = label
        self.platform = platform
    }

    /// The verdict for an empty or unreadable User-Agent.
    ///
    /// Real browsers and apps always send one, so its absence is a sign of a
    /// script; treating it as a bot keeps such requests out of the click count.
    public static let missing = UserAgentClass(label: .bot, platform: .other)
}

extension UserAgentClass: CustomStringConvertible {
    /// `label<TAB>platform`, the line format of `tolt-edge ua`.
    public var description: String { "\(label.rawValue)\t\(platform.rawValue)" }
}
