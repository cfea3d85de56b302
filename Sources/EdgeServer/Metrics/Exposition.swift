/// Writes the Prometheus text exposition format, version 0.0.4: for each metric a `# HELP` and a `# TYPE` line, then
/// one `name{label="value",…} number` line per series.
///
/// Label values come from fixed lists (``MetricLabels``) and the route table, and are escaped anyway (`\`, `"`,
/// newline), so no value can break a line.
struct Exposition {
    static let contentType = StaticText("text/plain; version=0.0.4; charset=utf-8")

    private(set) var text = ""

    /// Starts a metric: its help text and its type (`counter`, `gauge`, `histogram`).
    mutating func metric(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// One sample: `name{labels} value`.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, (label, labelValue)) in labels.enumerated() {
                if index > 0 { text += "," }
                text += label + "=\"" + Self.escaped(labelValue) + "\""
            }
            text += "}"
        }
        text += " " + value + "\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Int) {
        sample(name, labels, String(value))
    }

    /// A metric of one counter or gauge series.
    mutating func single(_ name: String, type: String, help: String, _ value: Int) {
        metric(name, type: type, help: help)
        sample(name, [], value)
    }

    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// `nanoseconds` as seconds in plain decimal (`0.00001`, `2.5`, `10`), without a float's rounding.
    static func decimal(nanoseconds: UInt64) -> String {
        let whole = String(nanoseconds / 1_000_000_000)
        var fraction = String(nanoseconds % 1_000_000_000)
        guard fraction != "0" else { return whole }
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return whole + "." + fraction
    }
}
