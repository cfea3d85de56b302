import EdgeStore
import LinkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tolt-edge ua`: classifies User-Agents read from standard input, one per line.
///
/// ```text
/// tolt-edge ua [--explain | --bench]
/// ```
///
/// Prints `label<TAB>platform` per input line, in order; `--explain` adds a
/// third column naming the rule that decided; `--bench` times the classifier
/// over the input instead. Input and output go through whole buffers, not a
/// `print` per line, so the command keeps up with the classifier itself.
enum UserAgentCommand {
    static let usage = """
        usage: tolt-edge ua [--explain | --bench]

        Reads User-Agents from standard input, one per line, and prints
        label<TAB>platform for each (label: human | bot | preview,
        platform: ios | android | desktop | other).

          --explain   add a third column: the rule that decided
          --bench     classify all lines repeatedly for ~2 s on one thread and
                      print UAs/second and the median ns per UA
          --help      print this help

        """

    private enum Mode { case classify, explain, bench }

    /// Runs the command with the arguments that follow the word `ua`;
    /// returns the process exit status (2 for a usage error).
    static func run(_ arguments: [String]) -> Int32 {
        var mode = Mode.classify
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                Output.out(usage)
                return 0
            case "--explain" where mode == .classify: mode = .explain
            case "--bench" where mode == .classify: mode = .bench
            case "--explain" where mode == .explain, "--bench" where mode == .bench:
                Output.err("tolt-edge ua: \(argument) is given more than once\n")
                return 2
            case "--explain", "--bench":
                Output.err("tolt-edge ua: --explain and --bench cannot be combined\n")
                return 2
            default:
                Output.err("tolt-edge ua: unknown argument '\(argument)'; see tolt-edge ua --help\n")
                return 2
            }
        }
        let input = readAll(0)
        let lines = splitLines(input)
        let classifier = UserAgentClassifier.standard
        switch mode {
        case .classify: classifyLines(input, lines, classifier)
        case .explain: explainLines(input, lines, classifier)
        case .bench: bench(input, lines, classifier)
        }
        return 0
    }

    private static func classifyLines(_ input: [UInt8], _ lines: [Range<Int>], _ classifier: UserAgentClassifier) {
        var output = OutputBuffer()
        input.withUnsafeBytes { all in
            for line in lines {
                let verdict = classifier.classify(UnsafeRawBufferPointer(rebasing: all[line]))
                output.append(verdict.label.rawValue)
                output.append("\t")
                output.append(verdict.platform.rawValue)
                output.append("\n")
            }
        }
        output.flush()
    }

    private static func explainLines(_ input: [UInt8], _ lines: [Range<Int>], _ classifier: UserAgentClassifier) {
        var output = OutputBuffer()
        for line in lines {
            let (verdict, rule) = input.withUnsafeBytes {
                classifier.explain(UnsafeRawBufferPointer(rebasing: $0[line]))
            }
            output.append("\(verdict.label.rawValue)\t\(verdict.platform.rawValue)\t\(rule)\n")
        }
        output.flush()
    }

    /// Line ranges of `input`, without their `\n` (or `\r\n`); a final
    /// newline does not start an extra empty line.
    static func splitLines(_ input: [UInt8]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for index in input.indices where input[index] == UInt8(ascii: "\n") {
            let end = index > start && input[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
            lines.append(start..<end)
            start = index + 1
        }
        if start < input.count { lines.append(start..<input.count) }
        return lines
    }

    static func readAll(_ descriptor: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// Collects output and writes it in 64 KiB blocks.
    private struct OutputBuffer {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(1 << 16) }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            if bytes.count >= 1 << 16 { flush() }
        }

        mutating func flush() {
            Output.out(bytes: bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }
}

extension UserAgentCommand {
    /// `--bench`: about one second of throughput, then one of latency.
    ///
    /// Throughput classifies the lines in input order, over and over, and
    /// divides the count by the elapsed time. Latency takes each line in turn
    /// and times 16 back-to-back classifications of it with
    /// `Clock.monotonicSeconds()` (one clock read per batch keeps the
    /// ~20 ns clock cost out of a sub-microsecond figure); the batch time / 16
    /// is one sample, and the median over all samples is reported.
    fileprivate static func bench(_ input: [UInt8], _ lines: [Range<Int>], _ classifier: UserAgentClassifier) {
        guard !lines.isEmpty else {
            Output.err("tolt-edge ua --bench: no User-Agents on standard input\n")
            return
        }
        var checksum = 0
        var classified = 0
        var samples: [Double] = []
        let batch = 16
        let throughputSeconds: Double = input.withUnsafeBytes { all in
            let start = Clock.monotonicSeconds()
            repeat {
                for line in lines {
                    checksum &+= code(classifier.classify(UnsafeRawBufferPointer(rebasing: all[line])))
                }
                classified += lines.count
            } while Clock.monotonicSeconds() - start < 1
            return Clock.monotonicSeconds() - start
        }
        input.withUnsafeBytes { all in
            samples.reserveCapacity(lines.count * 8)
            let start = Clock.monotonicSeconds()
            repeat {
                for line in lines {
                    let bytes = UnsafeRawBufferPointer(rebasing: all[line])
                    let before = Clock.monotonicSeconds()
                    for _ in 0..<batch { checksum &+= code(classifier.classify(bytes)) }
                    samples.append((Clock.monotonicSeconds() - before) * 1e9 / Double(batch))
                }
            } while Clock.monotonicSeconds() - start < 1
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        let rate = Double(classified) / throughputSeconds
        let report = """
            user-agents: \(lines.count) lines, \(classified) classified in \(format(throughputSeconds, 2)) s
            throughput: \(format(rate, 0)) UAs/s (one thread)
            median: \(format(median, 1)) ns/UA, p99: \(format(p99, 1)) ns/UA (\(samples.count) samples of \(batch) calls)
            checksum: \(checksum & 0xFFFF)

            """
        Output.out(report)
    }

    /// A cheap number per verdict, summed so the optimizer cannot drop the calls.
    private static func code(_ verdict: UserAgentClass) -> Int {
        let label = verdict.label == .human ? 0 : verdict.label == .bot ? 1 : 2
        let platform =
            verdict.platform == .ios ? 0 : verdict.platform == .android ? 1 : verdict.platform == .desktop ? 2 : 3
        return label * 4 + platform
    }

    /// Fixed-point formatting without Foundation's `String(format:)`.
    private static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard decimals > 0 else { return String(scaled) }
        let whole = String(scaled / Int(scale))
        var fraction = String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return whole + "." + fraction
    }
}
