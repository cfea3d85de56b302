/// One line of `user-agent-rules.txt`: a token and what finding it means.
///
/// A line reads `kind[:weight] pattern`, for example
///
/// ```text
/// preview      slackbot
/// bot          curl/
/// human:250    instagram
/// android:50   android
/// fetcher-ios  " i$"
/// ```
///
/// The pattern is matched as a substring of the ASCII-lowercased User-Agent.
/// It is written bare, or in double quotes when it starts or ends with a
/// space. A leading `^` pins it to the start of the User-Agent and a trailing
/// `$` to its end (only when the whole User-Agent was read, see
/// ``UserAgentClassifier/maximumScannedBytes``).
///
/// Rules answer three independent questions, each decided by the matching rule
/// of highest weight (the earlier line wins a tie):
/// - the label (`preview`, `human`, `bot`);
/// - the platform of a person (`ios`, `android`, `desktop`, `other`);
/// - the platform of a preview fetcher that runs on the sender's device
///   (`fetcher-ios`, `fetcher-android`), which is `other` when none matches.
struct UserAgentRule: Sendable {
    /// Which question a rule answers, and its answer.
    enum Kind: Sendable, Equatable {
        case label(UserAgentLabel)
        case platform(Platform)
        case fetcherPlatform(Platform)

        /// The three questions; each gets its own winner per User-Agent.
        enum Channel: Int, CaseIterable { case label = 0, platform = 1, fetcherPlatform = 2 }

        var channel: Channel {
            switch self {
            case .label: return .label
            case .platform: return .platform
            case .fetcherPlatform: return .fetcherPlatform
            }
        }

        /// Default weights make `preview` beat `human` beat `bot`, so that a
        /// person's in-app browser token outweighs a bot word inside it and a
        /// card fetcher is never demoted to a plain bot.
        var defaultWeight: Int {
            switch self {
            case .label(.preview): return 300
            case .label(.human): return 200
            case .label(.bot): return 100
            case .platform, .fetcherPlatform: return 100
            }
        }

        init?(name: Substring) {
            switch name {
            case "preview": self = .label(.preview)
            case "bot": self = .label(.bot)
            case "human": self = .label(.human)
            case "fetcher-ios": self = .fetcherPlatform(.ios)
            case "fetcher-android": self = .fetcherPlatform(.android)
            default:
                guard let platform = Platform(rawValue: String(name)) else { return nil }
                self = .platform(platform)
            }
        }
    }

    var kind: Kind
    var weight: Int
    /// Lowercased bytes to find; anchors are turned into sentinel bytes.
    var pattern: [UInt8]
    /// Whether the pattern must start, or end, at a token boundary (`\b` written at that edge): the byte
    /// before (after) the match is not of the same kind, word or not (``isWordByte(_:)``), as the
    /// pattern's first (last) byte; an end of the User-Agent counts as a non-word byte.
    var boundaryBefore = false
    var boundaryAfter = false
    /// 1-based line in the rules text, for `--explain` and error messages.
    var line: Int
    /// The line as written, trimmed: what `--explain` prints.
    var source: String

    /// Byte fed to the automaton before the first byte of a User-Agent.
    static let startSentinel: UInt8 = 0x01
    /// Byte fed after the last byte, when the User-Agent was read in full.
    static let endSentinel: UInt8 = 0x02

    /// Parses one non-comment line; `nil` with a reason when it is malformed.
    static func parse(_ text: Substring, line: Int) -> Result<UserAgentRule, UserAgentRuleError> {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
        guard let gap = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return .failure(.malformed(line: line, reason: "expected `kind pattern`"))
        }
        let head = trimmed[..<gap]
        let nameAndWeight = head.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let kind = Kind(name: nameAndWeight[0]) else {
            return .failure(.malformed(line: line, reason: "unknown kind `\(nameAndWeight[0])`"))
        }
        var weight = kind.defaultWeight
        if nameAndWeight.count == 2 {
            guard let explicit = Int(nameAndWeight[1]), explicit >= 0, explicit < 10_000 else {
                return .failure(.malformed(line: line, reason: "weight must be 0..<10000"))
            }
            weight = explicit
        }
        var body = trimmed[gap...].drop(while: { $0 == " " || $0 == "\t" })
        while let last = body.last, last == " " || last == "\t" { body = body.dropLast() }
        if body.count >= 2, body.first == "\"", body.last == "\"" {
            body = body.dropFirst().dropLast()
        }
        guard let (pattern, before, after) = encode(body) else {
            return .failure(
                .malformed(
                    line: line,
                    reason: "pattern must be printable ASCII and not empty, with \\b only at an unanchored edge"))
        }
        let source = trimmed.prefix(while: { $0 != "\r" })
        return .success(
            UserAgentRule(
                kind: kind, weight: weight, pattern: pattern, boundaryBefore: before, boundaryAfter: after,
                line: line, source: String(source)))
    }

    /// Lowercases the pattern, turns `^…` / `…$` into sentinel bytes and reads a `\b` at either edge.
    /// Nil for a malformed pattern: empty, not printable ASCII, or a `\b` anywhere but an unanchored edge
    /// (inside a pattern its bytes already say whether a boundary is there).
    private static func encode(_ body: Substring) -> (pattern: [UInt8], before: Bool, after: Bool)? {
        var bytes = Array(body.utf8)[...]
        var anchoredStart = false
        var anchoredEnd = false
        if bytes.first == UInt8(ascii: "^") { anchoredStart = true; bytes.removeFirst() }
        if bytes.last == UInt8(ascii: "$") { anchoredEnd = true; bytes.removeLast() }
        let marker = Array("\\b".utf8)
        let before = bytes.starts(with: marker)
        if before { bytes.removeFirst(2) }
        let after = bytes.count >= 2 && bytes.suffix(2).elementsEqual(marker)
        if after { bytes.removeLast(2) }
        if (before && anchoredStart) || (after && anchoredEnd) { return nil }
        guard !bytes.isEmpty || (anchoredStart && anchoredEnd && !before && !after) else { return nil }
        // A `\b` left inside the pattern could only be a mistake.
        if bytes.indices.dropLast().contains(where: { bytes[$0] == marker[0] && bytes[$0 + 1] == marker[1] }) {
            return nil
        }
        var pattern: [UInt8] = anchoredStart ? [startSentinel] : []
        for byte in bytes {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            pattern.append(UserAgentAutomaton.fold(byte))
        }
        if anchoredEnd { pattern.append(endSentinel) }
        return (pattern, before, after)
    }

    /// Word bytes, after folding: ASCII letters and digits, `_`, and every byte of a non-ASCII character, so
    /// that a letter of another script never makes a boundary inside a word. `\burl` finds "URL-Checker" and
    /// "Get URL", not "Burleson".
    @inline(__always)
    static func isWordByte(_ folded: UInt8) -> Bool {
        (folded >= 0x61 && folded <= 0x7A) || (folded >= 0x30 && folded <= 0x39) || folded == 0x5F || folded >= 0x80
    }
}

/// Why a rules text could not be compiled.
public struct UserAgentRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Sendable, Equatable {
        case malformed(line: Int, reason: String)
        case tooLarge(states: Int)
    }

    private let reason: Reason

    static func malformed(line: Int, reason: String) -> Self { Self(reason: .malformed(line: line, reason: reason)) }
    static func tooLarge(states: Int) -> Self { Self(reason: .tooLarge(states: states)) }

    /// A sentence naming the line at fault.
    public var description: String {
        switch reason {
        case .malformed(let line, let reason): return "user-agent rules, line \(line): \(reason)"
        case .tooLarge(let states): return "user-agent rules need \(states) automaton states; at most 65,535 fit"
        }
    }
}
