import Foundation
import Testing

/// The tests' strict reader refuses what the exposition format does not allow, so that a scrape it accepts means
/// something.
@Suite struct PrometheusTextTests {
    static let valid = """
        # HELP a_total Things.
        # TYPE a_total counter
        a_total{x="1",y="q\\"uote"} 3
        # HELP h Latency.
        # TYPE h histogram
        h_bucket{r="l",le="0.1"} 1
        h_bucket{r="l",le="1"} 2
        h_bucket{r="l",le="+Inf"} 2
        h_sum{r="l"} 0.25
        h_count{r="l"} 2

        """

    @Test func aWellFormedExpositionIsRead() throws {
        let text = try PrometheusText(Self.valid)
        #expect(text.value("a_total", ["x": "1", "y": "q\"uote"]) == 3)
        #expect(text.value("h_count", ["r": "l"]) == 2)
    }

    @Test(arguments: [
        ("no final newline", String(valid.dropLast())),
        ("a sample before its TYPE", "a_total 1\n# HELP a_total A.\n# TYPE a_total counter\n"),
        ("no HELP", "# TYPE a_total counter\na_total 1\n"),
        ("a second TYPE", "# HELP a A.\n# TYPE a gauge\n# TYPE a gauge\na 1\n"),
        ("an unknown type", "# HELP a A.\n# TYPE a meter\na 1\n"),
        ("a value that is no number", "# HELP a A.\n# TYPE a gauge\na one\n"),
        ("an unquoted label", "# HELP a A.\n# TYPE a gauge\na{x=1} 1\n"),
        ("a label twice", "# HELP a A.\n# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n"),
        ("a bad escape", "# HELP a A.\n# TYPE a gauge\na{x=\"\\t\"} 1\n"),
        ("an empty line", "# HELP a A.\n# TYPE a gauge\n\na 1\n"),
        ("a sample of another family", "# HELP a A.\n# TYPE a gauge\nb 1\n"),
        ("buckets not cumulative", valid.replacingOccurrences(of: "le=\"1\"} 2", with: "le=\"1\"} 0")),
        ("+Inf other than the count", valid.replacingOccurrences(of: "h_count{r=\"l\"} 2", with: "h_count{r=\"l\"} 3")),
        ("no +Inf bucket", valid.replacingOccurrences(of: "h_bucket{r=\"l\",le=\"+Inf\"} 2\n", with: "")),
        ("le not rising", valid.replacingOccurrences(of: "le=\"1\"", with: "le=\"0.05\"")),
        ("no _sum", valid.replacingOccurrences(of: "h_sum{r=\"l\"} 0.25\n", with: "")),
    ])
    func malformedExpositionsAreRefused(_ case_: (String, String)) {
        #expect(throws: (any Error).self, "\(case_.0)") { try PrometheusText(case_.1) }
    }
}
