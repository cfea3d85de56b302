import Foundation
import LinkCore
import TestSupport
import Testing

/// Scores the rules by source-grouped folds of the corpus, so that a rule fitted to rows shows.
///
/// The rules are written by hand, so "rules evaluated on the rows of sources they were not written from" needs a
/// checkable stand-in for "written from". The discipline, which needs no annotation and cannot be argued with:
///
/// 1. **Folds by source.** Rows are grouped by their `source` field (the exact list of public fixtures a string
///    came from: `dd:smartphone-21.yml`, `crawlerdetect:crawlers.txt;isbot:crawlers.yml`, …). Groups are dealt,
///    largest first (ties by name), to whichever of ``foldCount`` folds holds the fewest rows so far: a
///    deterministic, balanced split in which every string of one source lands in the same fold.
/// 2. **A rule that only one fold's rows touch is taken as written from that fold.** A rule "touches" a row when
///    its pattern occurs in the row's User-Agent, whether or not it decides the verdict
///    (``UserAgentClassifier/matchingRuleLines(_:)``). A rule that touches rows of two folds or more describes
///    something several sources share (a family); a rule that touches no row at all cannot have been fitted to
///    these rows. A rule that matches a **reference string** is taken as written from that reference, not from
///    corpus rows: the references are `preview-fetchers.tsv` (the corpus's own list of card fetchers, with the
///    vendor page or issue each comes from) and `reference-agents.tsv` (User-Agents as the products' own docs
///    and source give them, one a family, each with its address; none may cite the fixture lists the corpus is
///    drawn from, which ``referencesCiteNoCorpusList()`` checks).
/// 3. **Held-out score.** Fold *k* is judged by the rules less those taken as written from fold *k* (commented out,
///    so line numbers stay). This is what the rules would do on strings of sources nobody looked at, as far as
///    the corpus can tell; the targets must hold there, on every fold.
///
/// The test prints the whole-corpus score, then for each fold its score with all rules, its held-out score, and
/// the rules taken as written from it (the "row-fitted" list a rule author should look at first).
@Suite("User-Agent corpus folds")
struct UserAgentFoldTests {
    static let foldCount = 5

    /// Fold number of every row, by the rule in the type's doc comment.
    static func folds(of corpus: UserAgentCorpus) -> [Int] {
        var sizes: [String: Int] = [:]
        for row in corpus.rows { sizes[row.source, default: 0] += 1 }
        var foldOfSource: [String: Int] = [:]
        var foldSizes = [Int](repeating: 0, count: foldCount)
        for (source, size) in sizes.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            let smallest = foldSizes.indices.min { (foldSizes[$0], $0) < (foldSizes[$1], $1) }!
            foldOfSource[source] = smallest
            foldSizes[smallest] += size
        }
        return corpus.rows.map { foldOfSource[$0.source]! }
    }

    /// The User-Agent column of the two reference files, with each row's expected label where it has one.
    static func referenceAgents() throws -> [(userAgent: String, label: UserAgentLabel, reference: String)] {
        var agents: [(String, UserAgentLabel, String)] = []
        let fetchers = try String(contentsOfFile: try TestFiles.fixture("corpus/preview-fetchers.tsv"), encoding: .utf8)
        for line in fetchers.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count >= 3 { agents.append((String(fields[1]), .preview, String(fields[2]))) }
        }
        let families = try String(contentsOfFile: try TestFiles.fixture("corpus/reference-agents.tsv"), encoding: .utf8)
        for line in families.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, let label = UserAgentLabel(rawValue: String(fields[0])) else {
                throw TestError(
                    "reference-agents.tsv: not `label<TAB>platform<TAB>family<TAB>user_agent<TAB>reference`: \(line)")
            }
            agents.append((String(fields[3]), label, String(fields[4])))
        }
        return agents
    }

    /// For each rule line, the groups (folds here; the entries of another list elsewhere) whose User-Agents it
    /// touches.
    static func groupsTouched<Group: Hashable>(
        by classifier: UserAgentClassifier, _ userAgents: some Sequence<(String, Group)>
    ) -> [Int: Set<Group>] {
        var touched: [Int: Set<Group>] = [:]
        for (userAgent, group) in userAgents {
            for line in classifier.matchingRuleLines(userAgent) { touched[line, default: []].insert(group) }
        }
        return touched
    }

    /// The rule lines any of `userAgents` touches: those of the reference strings are taken as written from
    /// the products, not from rows.
    static func linesTouched(by classifier: UserAgentClassifier, _ userAgents: some Sequence<String>) -> Set<Int> {
        var lines = Set<Int>()
        for userAgent in userAgents { lines.formUnion(classifier.matchingRuleLines(userAgent)) }
        return lines
    }

    /// The rule lines that exactly one group of `userAgents` touches and no corpus row or reference string does: the
    /// rules fitted to one entry of a list, which that list's figures cannot judge (the same discipline as the corpus
    /// folds, with the list's entries for sources).
    static func linesFittedToOneGroup<Group: Hashable>(
        _ userAgents: some Sequence<(String, Group)>, corpus: UserAgentCorpus
    ) throws -> Set<Int> {
        let standard = UserAgentClassifier.standard
        let touched = groupsTouched(by: standard, userAgents)
        let outside = linesTouched(
            by: standard, corpus.rows.map(\.userAgent) + (try referenceAgents().map(\.userAgent)))
        return Set(touched.filter { $0.value.count == 1 && !outside.contains($0.key) }.keys)
    }

    /// How many misjudged rows a fold prints: enough to see which families fail, bounded so a bad rules edit
    /// does not flood the log.
    static let misjudgedShown = 30

    /// The rows whose label the classifier gets wrong, or whose platform it gets wrong for a person (disputed
    /// platforms aside), one line each: expected → predicted, the deciding rule, the source and the User-Agent.
    /// People taken for bots come first, then non-human strings taken for people, then the rest, since those are
    /// what the targets weigh most.
    static func misjudged(_ rows: [UserAgentCorpus.Row], by classifier: UserAgentClassifier) -> [String] {
        var lines: [(order: Int, text: String)] = []
        for row in rows {
            let (verdict, rule) = classifier.explain(row.userAgent)
            let labelWrong = verdict.label != row.label
            let platformWrong =
                row.label == .human && verdict.label == .human && verdict.platform != row.platform
                && UserAgentCorpusTests.disputedPlatform[row.userAgent] == nil
            guard labelWrong || platformWrong else { continue }
            let order = row.label == .human && labelWrong ? 0 : verdict.label == .human ? 1 : 2
            let shown = row.userAgent.count > 160 ? String(row.userAgent.prefix(160)) + "…" : row.userAgent
            lines.append(
                (
                    order,
                    "\(row.label.rawValue)/\(row.platform.rawValue) → \(verdict.label.rawValue)/"
                        + "\(verdict.platform.rawValue) [\(rule)] \(row.source): \(shown)"
                ))
        }
        return lines.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
            .map(\.element.text)
    }

    /// The standard rules with the given lines commented out (so line numbers stay).
    static func classifier(without lines: Set<Int>) throws -> UserAgentClassifier {
        let text = UserAgentClassifier.rulesText.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { index, line in lines.contains(index + 1) ? "# held out: " + line : String(line) }
        return try UserAgentClassifier(rules: text.joined(separator: "\n"))
    }

    @Test("every source-grouped fold meets the targets with the rules written from it held out")
    func foldsMeetTargets() throws {
        let corpus = try UserAgentCorpus.load()
        let standard = UserAgentClassifier.standard
        let folds = Self.folds(of: corpus)
        var touched = Self.groupsTouched(by: standard, zip(corpus.rows.map(\.userAgent), folds))
        for line in Self.linesTouched(by: standard, try Self.referenceAgents().map(\.userAgent)) {
            touched[line] = nil
        }
        let ruleLines = UserAgentClassifier.rulesText.split(separator: "\n", omittingEmptySubsequences: false)

        print("whole corpus, all rules: \(UserAgentScore(rows: corpus.rows, classifier: standard).summary)")
        for fold in 0..<Self.foldCount {
            let rows = zip(corpus.rows, folds).filter { $0.1 == fold }.map(\.0)
            let writtenFromFold = Set(touched.filter { $0.value == [fold] }.keys)
            let heldOut = try Self.classifier(without: writtenFromFold)
            let all = UserAgentScore(rows: rows, classifier: standard)
            let score = UserAgentScore(rows: rows, classifier: heldOut)
            let sources = Set(rows.map(\.source)).count
            print("fold \(fold) (\(sources) sources), all rules: \(all.summary)")
            print("fold \(fold) (\(sources) sources), held out:  \(score.summary)")
            let fitted = writtenFromFold.sorted().map { "  line \($0): \(ruleLines[$0 - 1])" }
            print("fold \(fold): \(fitted.count) rules touch only this fold's rows\n" + fitted.joined(separator: "\n"))
            let wrong = Self.misjudged(rows, by: heldOut)
            print(
                "fold \(fold), held out: \(wrong.count) rows misjudged"
                    + (wrong.count > Self.misjudgedShown ? ", the first \(Self.misjudgedShown):" : ":"))
            for line in wrong.prefix(Self.misjudgedShown) { print("  ✗ " + line) }
            // Issue 15 is open: 4 of the 40 fold targets are missed today (bench/RESULTS.md, "Issue 15", the fourth to
            // ninth and the fifteenth passes, say which and why). The misses are reported as a known issue, visible in every run; a
            // fold that meets every target records none. Once every fold does, this wrapper goes.
            withKnownIssue("issue 15: not every fold meets the targets yet") {
                for target in score.targets {
                    #expect(target.met, "fold \(fold), held out: \(target.name) (\(score.summary))")
                }
            } when: {
                !score.targets.allSatisfy(\.met)
            }
        }
    }

    @Test("reference strings come from the products, not from the fixture lists the corpus is drawn from")
    func referencesCiteNoCorpusList() throws {
        let corpusLists = [
            "monperrus/crawler-user-agents", "Crawler-Detect/blob", "Crawler-Detect/tree", "isbot/blob",
            "device-detector/blob", "uap-core/blob",
        ]
        let families = try String(contentsOfFile: try TestFiles.fixture("corpus/reference-agents.tsv"), encoding: .utf8)
        for line in families.split(separator: "\n").dropFirst() {
            for list in corpusLists { #expect(!line.contains(list), "\(line)") }
        }
        let classifier = UserAgentClassifier.standard
        for reference in try Self.referenceAgents() {
            #expect(classifier.classify(reference.userAgent).label == reference.label, "\(reference.userAgent)")
        }
    }

    @Test("the folds are deterministic, balanced, and keep each source in one fold")
    func foldsAreBySource() throws {
        let corpus = try UserAgentCorpus.load()
        let folds = Self.folds(of: corpus)
        #expect(folds == Self.folds(of: corpus))
        var foldOfSource: [String: Set<Int>] = [:]
        for (row, fold) in zip(corpus.rows, folds) { foldOfSource[row.source, default: []].insert(fold) }
        #expect(foldOfSource.values.allSatisfy { $0.count == 1 })
        let sizes = (0..<Self.foldCount).map { fold in folds.filter { $0 == fold }.count }
        #expect(sizes.max()! - sizes.min()! <= corpus.rows.count / 20, "fold sizes \(sizes)")
    }

    @Test("matchingRuleLines finds every rule whose pattern occurs, not only the winner")
    func matchingRuleLinesFindsAll() throws {
        let classifier = try UserAgentClassifier(
            rules: """
                bot bot
                preview slackbot
                bot "^slack"
                human iphone
                bot zzz
                """)
        #expect(classifier.matchingRuleLines("Slackbot 1.0") == [1, 2, 3])
        #expect(classifier.matchingRuleLines("xSlackbot (iPhone)") == [1, 2, 4])
        #expect(classifier.matchingRuleLines("curl/8") == [])
    }
}
