/// Classifies a User-Agent as a person, a bot or a link-preview fetcher, and
/// names the person's platform.
///
/// The rules are plain tokens in `user-agent-rules.txt` (embedded in the
/// binary as ``rulesText``). They are compiled once into an Aho–Corasick
/// automaton, so a User-Agent is judged in a single pass over at most
/// ``maximumScannedBytes`` bytes, whatever the number of rules, without
/// allocating.
///
/// The decision, in order:
/// 1. An empty User-Agent is a bot.
/// 2. The matching label rule of highest weight decides (`preview` outweighs
///    `human`, which outweighs `bot`, unless a rule says otherwise).
/// 3. With no label rule, an OS or device token makes it a person; with no
///    token at all it is a bot, since every browser and app names its system
///    and a string that names nothing is almost always a script.
/// 4. A person's platform is the best platform rule, `other` if none; a bot's
///    is `other`; a preview fetcher's is its fetcher-platform rule, if any.
///
/// One exception to 2: bot words inside the device model of an Android comment
/// (`(Linux; Android 13; Spider 8 Build/…)`) are a phone's name, not a
/// crawler's, so when a bot rule wins the model is set aside and the string
/// judged again without it (a rare second pass, never on a person's usual
/// string). A crawler's own token stands outside the model, and still counts.
///
/// ```swift
/// let verdict = UserAgentClassifier.standard.classify("curl/8.5.0")
/// // UserAgentClass(label: .bot, platform: .other)
/// ```
public struct UserAgentClassifier: Sendable {
    /// How much of a User-Agent is read. Real ones fit easily (long in-app
    /// browser strings are ~500 bytes); reading no further bounds the cost of
    /// hostile megabyte headers.
    public static let maximumScannedBytes = 1024

    /// The classifier built from the rules checked in with the package.
    ///
    /// Built on first use; the checked-in rules are validated by the tests,
    /// so a failure here is a build defect, not a run-time condition.
    public static let standard: UserAgentClassifier = {
        do { return try UserAgentClassifier(rules: rulesText) } catch {
            fatalError("invalid user-agent-rules.txt: \(error)")
        }
    }()

    private let automaton: UserAgentAutomaton
    private let rules: [UserAgentRule]
    /// Verdict part of each rule, by channel and rank: a flat copy of
    /// `rules[…].kind` that the hot path can read without touching `rules`.
    private let labelByRank: [UserAgentLabel]
    private let platformByRank: [Platform]
    private let fetcherPlatformByRank: [Platform]

    /// Compiles a rules text in the format of `user-agent-rules.txt`.
    ///
    /// Lines starting with `#` and blank lines are ignored. Throws on the
    /// first malformed line.
    public init(rules text: String) throws(UserAgentRuleError) {
        var parsed: [UserAgentRule] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let content = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if content.isEmpty || content.first == "#" || content.allSatisfy({ $0 == "\r" }) { continue }
            parsed.append(try UserAgentRule.parse(content, line: lineNumber).get())
        }
        rules = parsed
        automaton = try UserAgentAutomaton(rules: parsed)
        let ranked = automaton.rankedRules
        labelByRank = ranked[UserAgentRule.Kind.Channel.label.rawValue].map {
            if case .label(let label) = parsed[$0].kind { return label }
            preconditionFailure("label channel holds only label rules")
        }
        platformByRank = ranked[UserAgentRule.Kind.Channel.platform.rawValue].map {
            if case .platform(let platform) = parsed[$0].kind { return platform }
            preconditionFailure("platform channel holds only platform rules")
        }
        fetcherPlatformByRank = ranked[UserAgentRule.Kind.Channel.fetcherPlatform.rawValue].map {
            if case .fetcherPlatform(let platform) = parsed[$0].kind { return platform }
            preconditionFailure("fetcher channel holds only fetcher rules")
        }
    }

    /// Number of rules compiled, for start-up logs.
    public var ruleCount: Int { rules.count }

    /// Classifies raw User-Agent bytes, as they came off the wire.
    ///
    /// The hot path: reads at most ``maximumScannedBytes`` bytes, allocates
    /// nothing, and accepts any bytes (invalid UTF-8 and NULs included).
    @inline(__always)
    public func classify(_ bytes: UnsafeRawBufferPointer) -> UserAgentClass {
        let ranks = scan(bytes).ranks
        return verdict(label: ranks.0, platform: ranks.1, fetcher: ranks.2, empty: bytes.isEmpty)
    }

    /// Classifies a User-Agent given as a `String` (tests, CLI, admin tools).
    public func classify(_ userAgent: String) -> UserAgentClass {
        var userAgent = userAgent
        return userAgent.withUTF8 { classify(UnsafeRawBufferPointer($0)) }
    }

    /// Classifies a User-Agent and names the rule that decided its label
    /// (and, when one did, the rule that decided its platform), for
    /// `tolt-edge ua --explain`.
    public func explain(_ userAgent: String) -> (UserAgentClass, rule: String) {
        var userAgent = userAgent
        return userAgent.withUTF8 { explain(UnsafeRawBufferPointer($0)) }
    }

    /// ``explain(_:)-(String)`` on the raw bytes, as they came off the wire: the same bytes, so the same
    /// verdict, as ``classify(_:)-(UnsafeRawBufferPointer)`` gives them (a `String` would have replaced
    /// invalid UTF-8 first).
    public func explain(_ bytes: UnsafeRawBufferPointer) -> (UserAgentClass, rule: String) {
        let (ranks, model) = scan(bytes)
        let verdict = verdict(label: ranks.0, platform: ranks.1, fetcher: ranks.2, empty: bytes.isEmpty)
        var reason: String
        if bytes.isEmpty {
            reason = "empty User-Agent"
        } else if let rule = rule(.label, ranks.0) {
            reason = describe(rule)
        } else if let rule = rule(.platform, ranks.1) {
            reason = "no label rule; OS token " + describe(rule)
        } else {
            reason = "no label rule and no OS token"
        }
        if let model {
            // Control bytes as spaces, so the name cannot break a line or a column of the output.
            let name = String(decoding: bytes[model].map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 }, as: UTF8.self)
            reason = "bot words in the Android model \"\(name)\" set aside; " + reason
        }
        if verdict.label == .human, ranks.0 != UserAgentAutomaton.none, let rule = rule(.platform, ranks.1) {
            reason += "; platform " + describe(rule)
        } else if verdict.label == .preview, let rule = rule(.fetcherPlatform, ranks.2) {
            reason += "; platform " + describe(rule)
        }
        return (verdict, reason)
    }

    /// The 1-based lines of every rule whose pattern occurs in `userAgent`,
    /// whether or not it decides anything, in ascending order.
    ///
    /// For tests and tools, not the link path (it allocates): the
    /// source-grouped fold test uses it to find rules that only rows of one
    /// fold touch.
    public func matchingRuleLines(_ userAgent: String) -> [Int] {
        var userAgent = userAgent
        return userAgent.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            let whole = bytes.count <= Self.maximumScannedBytes
            let bounded = whole ? bytes : UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.maximumScannedBytes))
            return automaton.matchingRules(bounded, wholeInput: whole).map { rules[$0].line }
        }
    }

    /// The best rank per channel, and the Android model set aside, if one was.
    @inline(__always)
    private func scan(_ bytes: UnsafeRawBufferPointer) -> (ranks: (UInt16, UInt16, UInt16), setAside: Range<Int>?) {
        let whole = bytes.count <= Self.maximumScannedBytes
        let bounded = whole ? bytes : UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.maximumScannedBytes))
        var ranks = automaton.scan(bounded, wholeInput: whole)
        guard isBotRule(ranks.0), let model = Self.androidModel(in: bounded),
            !Self.holdsProductToken(bounded, model)
        else { return (ranks, nil) }
        let without = automaton.scan(bounded, wholeInput: whole, blanked: model)
        guard !isBotRule(without.0) else { return (ranks, nil) }
        ranks.0 = without.0
        return (ranks, model)
    }

    @inline(__always)
    private func isBotRule(_ labelRank: UInt16) -> Bool {
        labelRank != UserAgentAutomaton.none && labelByRank[Int(labelRank)] == .bot
    }

    @inline(__always)
    private func verdict(label: UInt16, platform: UInt16, fetcher: UInt16, empty: Bool) -> UserAgentClass {
        let none = UserAgentAutomaton.none
        if empty { return .missing }
        let decided: UserAgentLabel
        if label != none {
            decided = labelByRank[Int(label)]
        } else {
            decided = platform != none ? .human : .bot
        }
        switch decided {
        case .human:
            return UserAgentClass(label: .human, platform: platform != none ? platformByRank[Int(platform)] : .other)
        case .preview:
            return UserAgentClass(
                label: .preview, platform: fetcher != none ? fetcherPlatformByRank[Int(fetcher)] : .other)
        case .bot:
            return UserAgentClass(label: .bot, platform: .other)
        }
    }

    private func rule(_ channel: UserAgentRule.Kind.Channel, _ rank: UInt16) -> UserAgentRule? {
        guard rank != UserAgentAutomaton.none else { return nil }
        return rules[automaton.rankedRules[channel.rawValue][Int(rank)]]
    }

    private func describe(_ rule: UserAgentRule) -> String { "line \(rule.line): \(rule.source)" }
}
