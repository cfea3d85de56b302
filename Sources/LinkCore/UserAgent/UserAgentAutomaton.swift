/// An Aho–Corasick automaton over every rule pattern, compiled to a dense DFA.
///
/// One pass over the (bounded) User-Agent visits each byte once with two table
/// loads: the byte's equivalence class, then the next state. A state whose
/// pattern set is non-empty carries a flag bit in the transition that enters
/// it, so the rare matching states cost a few more loads and every other byte
/// costs nothing extra. For each of the three questions a state keeps only the
/// best-ranked rule among all patterns ending there (its own and those along
/// its failure links); "best" is associative, so the scan just keeps a running
/// minimum of ranks and never needs the failure links at run time.
///
/// A pattern written with a `\b` edge is the one exception: whether it holds depends on the bytes
/// around the match, so it stays out of the states' best ranks and is checked where it ends, against
/// the byte before or after (the few states where such a pattern ends carry the flag too).
///
/// The tables live in memory allocated once at start-up and never written
/// again; `classify` reads them through raw pointers, which neither allocates
/// nor retains anything on the hot path.
final class UserAgentAutomaton: @unchecked Sendable {
    // @unchecked Sendable: every pointer below is filled in `init` and only
    // read afterwards, so sharing one instance between threads is safe.

    /// Rank meaning "no rule of this channel matched".
    static let none: UInt16 = .max
    /// Flag bit on a transition whose target state has outputs.
    static let outputFlag: UInt16 = 0x8000
    static let channelCount = UserAgentRule.Kind.Channel.allCases.count

    /// Equivalence class of each (raw) input byte, after ASCII case folding.
    private let byteClass: UnsafeMutablePointer<UInt8>
    private let startClass: Int
    private let endClass: Int
    private let classCount: Int
    /// `transitions[state * classCount + class]`: next state, ORed with `outputFlag`.
    private let transitions: UnsafeMutablePointer<UInt16>
    /// `outputs[state * channelCount + channel]`: best rank, or `none`, over the patterns that need no
    /// boundary check.
    private let outputs: UnsafeMutablePointer<UInt16>
    /// Patterns with a `\b` edge that end at a state (its own and along its failure links):
    /// `checkBounds[state]` to `checkBounds[state + 1]` in `checks`, empty for almost every state. Only
    /// those states pay for a check, when the scan reaches them, which keeps the loop over the bytes as it
    /// is for every other pattern.
    private let checkBounds: UnsafeMutablePointer<Int32>
    private let checks: UnsafeMutablePointer<Check>
    /// The check of each rule (index into the rule list) that has one, for `matchingRules`.
    private let checkOfRule: [Check?]
    /// Word bytes, by raw input byte (``UserAgentRule/isWordByte(_:)`` after folding).
    private let wordByte: UnsafeMutablePointer<Bool>

    /// A pattern whose match holds only at token boundaries.
    struct Check {
        var channel: UserAgentRule.Kind.Channel
        var rank: UInt16
        /// Bytes of the pattern from the User-Agent (sentinels aside), ending at the byte just read.
        var length: Int
        /// Nil when that edge asks for no boundary; otherwise whether the pattern's first (last) byte is a
        /// word byte, which the byte outside the match must not be.
        var before: Bool?
        var after: Bool?
    }
    /// `rankedRules[channel][rank]`: index into the rule list.
    let rankedRules: [[Int]]
    let stateCount: Int
    /// Rules whose pattern ends exactly at each state, and each state's
    /// failure link: only `matchingRules`, a tool for tests and
    /// `--explain`, walks them; `scan` never does.
    private let rulesEndingAt: [[Int]]
    private let failure: [Int]

    /// Folds a byte the way both patterns and input are compared: ASCII
    /// letters to lowercase, control bytes (NUL, CR, LF, TAB…) to a space so
    /// they can never forge the sentinel bytes; anything else is kept.
    @inline(__always)
    static func fold(_ byte: UInt8) -> UInt8 {
        if byte >= 0x41 && byte <= 0x5A { return byte | 0x20 }
        if byte < 0x20 || byte == 0x7F { return 0x20 }
        return byte
    }

    init(rules: [UserAgentRule]) throws(UserAgentRuleError) {
        // Classes: 0 for every byte no pattern uses, then one per used byte.
        var classOfFolded = [Int](repeating: 0, count: 256)
        var classes = 1
        for rule in rules {
            for byte in rule.pattern where classOfFolded[Int(byte)] == 0 {
                classOfFolded[Int(byte)] = classes; classes += 1
            }
        }
        for sentinel in [UserAgentRule.startSentinel, UserAgentRule.endSentinel]
        where classOfFolded[Int(sentinel)] == 0 {
            classOfFolded[Int(sentinel)] = classes; classes += 1
        }
        classCount = classes
        startClass = classOfFolded[Int(UserAgentRule.startSentinel)]
        endClass = classOfFolded[Int(UserAgentRule.endSentinel)]
        byteClass = .allocate(capacity: 256)
        wordByte = .allocate(capacity: 256)
        for byte in 0..<256 {
            byteClass[byte] = UInt8(classOfFolded[Int(Self.fold(UInt8(byte)))])
            wordByte[byte] = UserAgentRule.isWordByte(Self.fold(UInt8(byte)))
        }

        // Ranks: within each channel, higher weight first, then earlier line.
        var ranked = [[Int]](repeating: [], count: Self.channelCount)
        for (index, rule) in rules.enumerated() { ranked[rule.kind.channel.rawValue].append(index) }
        for channel in ranked.indices {
            ranked[channel].sort { (rules[$0].weight, -rules[$0].line) > (rules[$1].weight, -rules[$1].line) }
        }
        rankedRules = ranked
        var rankOfRule = [Int](repeating: 0, count: rules.count)
        for list in ranked { for (rank, rule) in list.enumerated() { rankOfRule[rule] = rank } }

        // Trie: `next` is -1 where no edge exists yet.
        var next = [Int32](repeating: -1, count: classes)
        var best = [UInt16](repeating: Self.none, count: Self.channelCount)
        var nodes = 1
        var ends: [[Int]] = [[]]
        for (index, rule) in rules.enumerated() {
            var node = 0
            for byte in rule.pattern {
                let slot = node * classes + classOfFolded[Int(byte)]
                if next[slot] < 0 {
                    next[slot] = Int32(nodes)
                    nodes += 1
                    next.append(contentsOf: repeatElement(-1, count: classes))
                    best.append(contentsOf: repeatElement(Self.none, count: Self.channelCount))
                    ends.append([])
                }
                node = Int(next[slot])
            }
            ends[node].append(index)
            if !rule.boundaryBefore && !rule.boundaryAfter {
                let slot = node * Self.channelCount + rule.kind.channel.rawValue
                best[slot] = min(best[slot], UInt16(rankOfRule[index]))
            }
        }
        guard nodes < Int(Self.outputFlag) else { throw .tooLarge(states: nodes) }

        // Boundary patterns: each state's own here, those along its failure links added breadth-first below,
        // as the best ranks are.
        var checkOf = [Check?](repeating: nil, count: rules.count)
        for (index, rule) in rules.enumerated() where rule.boundaryBefore || rule.boundaryAfter {
            let text = rule.pattern.filter { $0 != UserAgentRule.startSentinel && $0 != UserAgentRule.endSentinel }
            checkOf[index] = Check(
                channel: rule.kind.channel, rank: UInt16(rankOfRule[index]), length: text.count,
                before: rule.boundaryBefore ? UserAgentRule.isWordByte(text.first!) : nil,
                after: rule.boundaryAfter ? UserAgentRule.isWordByte(text.last!) : nil)
        }
        var stateChecks = ends.map { $0.compactMap { checkOf[$0] } }

        // Breadth-first: fill failure transitions and inherit outputs along them.
        var fail = [Int](repeating: 0, count: nodes)
        var queue: [Int] = []
        queue.reserveCapacity(nodes)
        for cls in 0..<classes {
            if next[cls] < 0 { next[cls] = 0 } else { queue.append(Int(next[cls])) }
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for channel in 0..<Self.channelCount {
                let own = node * Self.channelCount + channel
                best[own] = min(best[own], best[fail[node] * Self.channelCount + channel])
            }
            stateChecks[node] += stateChecks[fail[node]]
            for cls in 0..<classes {
                let slot = node * classes + cls
                let viaFailure = next[fail[node] * classes + cls]
                if next[slot] < 0 {
                    next[slot] = viaFailure
                } else {
                    fail[Int(next[slot])] = Int(viaFailure)
                    queue.append(Int(next[slot]))
                }
            }
        }

        let flat = stateChecks.flatMap { $0 }
        checks = .allocate(capacity: max(flat.count, 1))
        checks.initialize(from: flat, count: flat.count)
        checkBounds = .allocate(capacity: nodes + 1)
        checkBounds[0] = 0
        for node in 0..<nodes { checkBounds[node + 1] = checkBounds[node] + Int32(stateChecks[node].count) }
        checkOfRule = checkOf

        stateCount = nodes
        rulesEndingAt = ends
        failure = fail
        outputs = .allocate(capacity: best.count)
        for index in best.indices { outputs[index] = best[index] }
        transitions = .allocate(capacity: next.count)
        for slot in next.indices {
            let target = Int(next[slot])
            let hasOutput =
                (0..<Self.channelCount).contains { best[target * Self.channelCount + $0] != Self.none }
                || !stateChecks[target].isEmpty
            transitions[slot] = UInt16(target) | (hasOutput ? Self.outputFlag : 0)
        }
    }

    deinit {
        byteClass.deallocate()
        wordByte.deallocate()
        checks.deallocate()
        checkBounds.deallocate()
        transitions.deallocate()
        outputs.deallocate()
    }

    /// Every rule (index into the rule list) whose pattern occurs in `bytes`,
    /// in ascending order: what a rule matches, not only what wins.
    ///
    /// Not for the hot path (it allocates); the fold test uses it to tell
    /// which corpus rows each rule touches.
    func matchingRules(_ bytes: UnsafeRawBufferPointer, wholeInput: Bool) -> [Int] {
        var found = Set<Int>()
        var state = 0
        func step(_ cls: Int, end: Int) {
            state = Int(transitions[state * classCount + cls] & ~Self.outputFlag)
            var node = state
            while node != 0 {
                for rule in rulesEndingAt[node] {
                    if let check = checkOfRule[rule],
                        !holds(check, end: end, in: bytes, wholeInput: wholeInput, blanked: 0..<0)
                    {
                        continue
                    }
                    found.insert(rule)
                }
                node = failure[node]
            }
        }
        step(startClass, end: 0)
        for (index, byte) in bytes.enumerated() { step(Int(byteClass[Int(byte)]), end: index + 1) }
        if wholeInput { step(endClass, end: bytes.count) }
        return found.sorted()
    }

    /// Best rank per channel over all patterns found in `bytes`.
    ///
    /// The caller bounds `bytes`; `wholeInput` says whether its end is the end
    /// of the User-Agent, which is when `…$` patterns may match. The bytes in
    /// `blanked` (empty on the hot path) are read as spaces, so no pattern can
    /// match inside them: the classifier uses it to set a device's model name
    /// aside.
    @inline(__always)
    func scan(_ bytes: UnsafeRawBufferPointer, wholeInput: Bool, blanked: Range<Int> = 0..<0) -> (
        UInt16, UInt16, UInt16
    ) {
        var label = Self.none
        var platform = Self.none
        var fetcher = Self.none
        var state = 0
        let classes = classCount
        @inline(__always) func step(_ cls: Int, end: Int) {
            let entry = transitions[state &* classes &+ cls]
            state = Int(entry & ~Self.outputFlag)
            if entry & Self.outputFlag != 0 {
                let base = state &* Self.channelCount
                label = min(label, outputs[base])
                platform = min(platform, outputs[base &+ 1])
                fetcher = min(fetcher, outputs[base &+ 2])
                let first = Int(checkBounds[state])
                let stateChecks = UnsafeBufferPointer(
                    start: checks + first, count: Int(checkBounds[state &+ 1]) - first)
                for check in stateChecks
                where holds(check, end: end, in: bytes, wholeInput: wholeInput, blanked: blanked) {
                    switch check.channel {
                    case .label: label = min(label, check.rank)
                    case .platform: platform = min(platform, check.rank)
                    case .fetcherPlatform: fetcher = min(fetcher, check.rank)
                    }
                }
            }
        }
        step(startClass, end: 0)
        if blanked.isEmpty {
            var end = 0
            for byte in bytes {
                end &+= 1
                step(Int(byteClass[Int(byte)]), end: end)
            }
        } else {
            let space = Int(byteClass[0x20])
            for (index, byte) in bytes.enumerated() {
                step(blanked.contains(index) ? space : Int(byteClass[Int(byte)]), end: index + 1)
            }
        }
        if wholeInput { step(endClass, end: bytes.count) }
        return (label, platform, fetcher)
    }

    /// Whether a boundary pattern that ends just before `end` (an index into `bytes`, one past the
    /// match's last byte) stands at token boundaries where it asks to. Past the end of a bounded prefix
    /// nothing is known, so a boundary asked for there does not hold.
    private func holds(
        _ check: Check, end: Int, in bytes: UnsafeRawBufferPointer, wholeInput: Bool, blanked: Range<Int>
    ) -> Bool {
        func isWord(_ index: Int) -> Bool { !blanked.contains(index) && wordByte[Int(bytes[index])] }
        if let first = check.before {
            let outside = end - check.length - 1
            if (outside >= 0 && isWord(outside)) == first { return false }
        }
        if let last = check.after {
            if end >= bytes.count {
                if !wholeInput || last == false { return false }
            } else if isWord(end) == last {
                return false
            }
        }
        return true
    }
}
