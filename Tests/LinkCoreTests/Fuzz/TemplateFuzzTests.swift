import LinkCore
import TestSupport
import Testing

/// The deep-link template expander against a million seeded mutations of real templates, each filled with a
/// random code and click id: a template is refused, or every `Location` it yields is one line of URL bytes with
/// the code percent-encoded where `{code}` stood.
@Suite struct TemplateFuzzTests {
    static let seeds = [
        "myapp://claim?tolt_code={code}&tolt_click={click_id}", "https://app.example.com/r/{code}?c={click_id}",
        "fb123://x/{code}{code}{click_id}", "app+beta.v2://{click_id}/{code}#frag",
    ].map { Array($0.utf8) }
    static let alphabet = Array("{}codeclick_id:/?&=#%+.-abxyz019 ".utf8) + [0x00, 0x0A, 0x7F, 0xC2, 0xA0, 0xE2]
    static let codeBytes = Array("ABCxyz019-_.~%/?#&=+ é\"<>".utf8)

    @Test func aMillionMutatedTemplatesExpandToOneLineOfURL() async {
        var generator = SeededGenerator(seed: 0x7E3A)
        let cases = SeededGenerator.cases(1_000_000)
        var accepted = 0
        for index in 0..<cases {
            if index % 4096 == 0 { await Task.yield() }
            let bytes = generator.mutate(Self.seeds[index % Self.seeds.count], alphabet: Self.alphabet)
            guard let template = try? DeepLinkTemplate(String(decoding: bytes, as: UTF8.self)) else { continue }
            accepted += 1
            let code = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Self.codeBytes.randomElement(using: &generator)!
            }
            let encoded = PercentEncoding.encode(code)
            let clickID = Array("clk_0123456789abcdefghijklmnopqrstuvwx".utf8)
            let location = Array(template.chunks(encodedCode: encoded).joined(separator: clickID))
            if let bad = location.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
                Issue.record("case \(index): byte \(bad) in \(String(decoding: location, as: UTF8.self))")
                return
            }
            if !URLRules.hasScheme(location) {
                Issue.record("case \(index): no scheme in \(String(decoding: location, as: UTF8.self))")
                return
            }
            if encoded.contains(where: { !(ASCII.isUnreserved($0) || $0 == 0x25) }) {
                Issue.record("case \(index): the code \(code) encoded as \(String(decoding: encoded, as: UTF8.self))")
                return
            }
        }
        #expect(accepted > 0 && accepted < cases, "both outcomes are reached: \(accepted) of \(cases) accepted")
    }
}
