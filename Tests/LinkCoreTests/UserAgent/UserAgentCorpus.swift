import Foundation
import LinkCore
import TestSupport

/// The labelled corpus in `Tests/Fixtures/corpus/ua-dev.tsv`, read once per test.
struct UserAgentCorpus {
    struct Row {
        var label: UserAgentLabel
        var platform: Platform
        var source: String
        var userAgent: String
    }

    var rows: [Row]

    /// Parses the TSV: `label, platform, source, user_agent`, header first,
    /// no quoting (the user agent is everything after the third TAB).
    static func load() throws -> UserAgentCorpus {
        let path = try TestFiles.fixture("corpus/ua-dev.tsv")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [Row] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).dropFirst() {
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4,
                let label = UserAgentLabel(rawValue: String(fields[0])),
                let platform = Platform(rawValue: String(fields[1]))
            else { throw TestError("\(path): not `label<TAB>platform<TAB>source<TAB>user_agent`: \(line)") }
            rows.append(Row(label: label, platform: platform, source: String(fields[2]), userAgent: String(fields[3])))
        }
        return UserAgentCorpus(rows: rows)
    }
}

/// Counts of (expected, predicted) pairs, printed as a table.
struct ConfusionMatrix<Value: Hashable & RawRepresentable> where Value.RawValue == String {
    var counts: [Value: [Value: Int]] = [:]
    let order: [Value]

    init(order: [Value]) { self.order = order }

    mutating func add(expected: Value, predicted: Value) {
        counts[expected, default: [:]][predicted, default: 0] += 1
    }

    func count(_ expected: Value, _ predicted: Value) -> Int { counts[expected]?[predicted] ?? 0 }
    func expected(_ value: Value) -> Int { order.reduce(0) { $0 + count(value, $1) } }
    func predicted(_ value: Value) -> Int { order.reduce(0) { $0 + count($1, value) } }
    var total: Int { order.reduce(0) { $0 + expected($1) } }
    var correct: Int { order.reduce(0) { $0 + count($1, $1) } }

    func precision(_ value: Value) -> Double { Double(count(value, value)) / Double(max(1, predicted(value))) }
    func recall(_ value: Value) -> Double { Double(count(value, value)) / Double(max(1, expected(value))) }

    func rendered(title: String) -> String {
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, 10 - text.count)) }
        var lines = [pad(title) + order.map { pad($0.rawValue) }.joined() + "(rows: expected, columns: predicted)"]
        for expected in order {
            lines.append(pad(expected.rawValue) + order.map { pad(String(count(expected, $0))) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}
