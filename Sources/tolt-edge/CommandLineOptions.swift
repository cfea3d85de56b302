/// Parses `--name value`, `--name=value` and `--flag` options; anything unknown is a usage error, and so is an option
/// given twice, unless it is `repeatable` (documented so in its command's help, as `serve --trusted-proxy` is): the
/// last one used to win silently, so `prune --before 2026-06-01 --before 2026-07-01` deleted up to July, and
/// `--org a --org b` listed `b`'s rows.
struct CommandLineOptions {
    /// A usage error: the message is printed with the command's help and the process exits with 2.
    struct UsageError: Error {
        var message: String
    }

    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// `valued` options take a value; `switches` do not; `repeatable` ones (valued) may be given more than once.
    init(
        _ arguments: [String], valued: Set<String>, switches: Set<String>, repeatable: Set<String> = [],
        maximumPositional: Int = 0
    ) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                guard positional.count < maximumPositional else {
                    throw UsageError(message: "unexpected argument '\(argument)'")
                }
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if switches.contains(name) {
                guard value == nil else { throw UsageError(message: "--\(name) takes no value") }
                guard flags.insert(name).inserted else {
                    throw UsageError(message: "--\(name) is given more than once")
                }
            } else if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw UsageError(message: "--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard values[name] == nil || repeatable.contains(name) else {
                    throw UsageError(message: "--\(name) is given more than once: give it once (it takes one value)")
                }
                values[name, default: []].append(value!)
            } else {
                throw UsageError(message: "unknown option --\(name)")
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "--\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
