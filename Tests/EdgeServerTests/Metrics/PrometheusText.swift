import Foundation
import TestSupport

/// A strict reader of the Prometheus text exposition format 0.0.4, written for the tests from the format's
/// description (not from our writer): every line is a `# HELP`/`# TYPE` comment or `name{label="value",…} value`;
/// a family's `# HELP` and `# TYPE` come once, before its samples; a sample belongs to the family declared last (a
/// histogram's as `_bucket`, `_sum`, `_count`); label names are valid and unique per sample; values parse as floats;
/// a histogram's buckets per series rise in `le`, are cumulative, end with `+Inf`, and `+Inf` equals `_count`.
struct PrometheusText {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    private(set) var samples: [Sample] = []
    /// Each family's declared type.
    private(set) var types: [String: String] = [:]

    init(_ text: String) throws {
        guard text.hasSuffix("\n") else { throw TestError("the exposition does not end with a newline") }
        var helped: Set<String> = []
        var family: String?
        for (number, line) in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let where_ = "line \(number + 1): \(line)"
            guard !line.isEmpty else { throw TestError("empty \(where_)") }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#" else { throw TestError("malformed comment, \(where_)") }
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw TestError("bad metric name, \(where_)") }
                switch parts[1] {
                case "HELP":
                    guard helped.insert(name).inserted else { throw TestError("second HELP, \(where_)") }
                    guard parts.count == 4, !parts[3].isEmpty else { throw TestError("HELP without text, \(where_)") }
                case "TYPE":
                    guard types[name] == nil else { throw TestError("second TYPE, \(where_)") }
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3])
                    else { throw TestError("bad TYPE, \(where_)") }
                    guard !samples.contains(where: { Self.family(of: $0.name, in: [name: ""]) != nil }) else {
                        throw TestError("TYPE after samples of its family, \(where_)")
                    }
                    types[name] = String(parts[3])
                    family = name
                default: throw TestError("comment neither HELP nor TYPE, \(where_)")
                }
                continue
            }
            let sample = try Self.parseSample(Substring(line), where_)
            guard let family, let type = types[family],
                sample.name == family
                    || (type == "histogram"
                        && ["_bucket", "_sum", "_count"].contains {
                            sample.name == family + $0
                        })
            else { throw TestError("sample outside its family's TYPE, \(where_)") }
            if sample.name.hasSuffix("_bucket") && type == "histogram" {
                guard sample.labels["le"] != nil else { throw TestError("bucket without le, \(where_)") }
            }
            samples.append(sample)
        }
        for family in types.keys { guard helped.contains(family) else { throw TestError("\(family) has no HELP") } }
        try checkHistograms()
    }

    /// The value of the one sample named `name` with exactly `labels`; 0 when there is none (a counter not yet
    /// incremented may be absent).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.first { $0.name == name && $0.labels == labels }?.value ?? 0
    }

    /// Whether a sample named `name` with exactly `labels` is present.
    func has(_ name: String, _ labels: [String: String] = [:]) -> Bool {
        samples.contains { $0.name == name && $0.labels == labels }
    }

    /// Samples named `name`.
    func all(_ name: String) -> [Sample] { samples.filter { $0.name == name } }

    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            var series: [[String: String]: [(le: Double, count: Double)]] = [:]
            for sample in all(family + "_bucket") {
                var key = sample.labels
                let le = key.removeValue(forKey: "le")!
                guard let bound = le == "+Inf" ? Double.infinity : Double(le) else {
                    throw TestError("\(family): le \(le) is not a number")
                }
                series[key, default: []].append((bound, sample.value))
            }
            guard !series.isEmpty else { throw TestError("\(family) has no buckets") }
            for (key, buckets) in series {
                for (previous, next) in zip(buckets, buckets.dropFirst()) {
                    guard next.le > previous.le else { throw TestError("\(family) \(key): le not increasing") }
                    guard next.count >= previous.count else { throw TestError("\(family) \(key): not cumulative") }
                }
                guard buckets.last?.le == .infinity else { throw TestError("\(family) \(key): no +Inf bucket") }
                guard has(family + "_count", key), has(family + "_sum", key) else {
                    throw TestError("\(family) \(key): no _count or _sum")
                }
                guard value(family + "_count", key) == buckets.last!.count else {
                    throw TestError("\(family) \(key): +Inf bucket \(buckets.last!.count) ≠ count")
                }
            }
        }
    }

    private static func family(of name: String, in types: [String: String]) -> String? {
        types.keys.first { name == $0 || name == $0 + "_bucket" || name == $0 + "_sum" || name == $0 + "_count" }
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
            first == "_" || first == ":"
                || CharacterSet.letters.contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0 == ":" || CharacterSet.alphanumerics.contains($0))
        }
    }

    static func isLabelName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("__") && isMetricName(name) && !name.contains(":")
    }

    /// `name{label="value",…} value`, or `name value`.
    private static func parseSample(_ line: Substring, _ where_: String) throws -> Sample {
        var rest = line[...]
        let nameEnd = rest.firstIndex { $0 == "{" || $0 == " " } ?? rest.endIndex
        let name = String(rest[..<nameEnd])
        guard isMetricName(name) else { throw TestError("bad sample name, \(where_)") }
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "=") else { throw TestError("label without =, \(where_)") }
                let label = String(rest[..<equals])
                guard isLabelName(label) else { throw TestError("bad label name \(label), \(where_)") }
                rest = rest[rest.index(after: equals)...]
                guard rest.first == "\"" else { throw TestError("unquoted label value, \(where_)") }
                rest = rest.dropFirst()
                var value = ""
                while true {
                    guard let character = rest.first else { throw TestError("unterminated label value, \(where_)") }
                    rest = rest.dropFirst()
                    if character == "\"" { break }
                    if character == "\\" {
                        guard let escaped = rest.first else { throw TestError("bad escape, \(where_)") }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw TestError("bad escape \\\(escaped), \(where_)")
                        }
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: label) == nil else {
                    throw TestError("label \(label) twice, \(where_)")
                }
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw TestError("labels not separated by commas, \(where_)")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw TestError("no space before the value, \(where_)") }
        let valueText = rest.dropFirst()
        let value: Double?
        switch valueText {
        case "+Inf": value = .infinity
        case "-Inf": value = -.infinity
        case "NaN": value = .nan
        default: value = valueText.contains(" ") ? nil : Double(valueText)
        }
        guard let value else { throw TestError("value is not a float (timestamps are not expected), \(where_)") }
        return Sample(name: name, labels: labels, value: value)
    }
}
