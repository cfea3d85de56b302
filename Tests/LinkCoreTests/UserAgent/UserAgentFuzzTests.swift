import LinkCore
import TestSupport
import Testing

/// Hostile input: random and mutated bytes never crash the classifier, and a
/// megabyte costs what a kilobyte costs, because only a bounded prefix is read.
@Suite("User-Agent fuzz")
struct UserAgentFuzzTests {
    /// Fragments of real tokens, so random strings reach deep automaton states.
    static let fragments: [[UInt8]] = [
        "Mozilla/5.0 (", "Android 14; ", "iPhone", "bot", "WhatsApp/2", " i", " A", "facebookexternalhit/1.1",
        "Slackbot", "Instagram ", "FBAN/", "curl/", "http://", "Tizen", "CrOS ", "\u{0}", "\r\n", "\u{FF}\u{FE}",
        // The Android model field, whose crawler words a second pass sets aside.
        "(Linux; Android 9; ", "en-us; ", " Build/", "Spider ", "bot-", ")", ";",
    ].map { Array($0.utf8) }

    static func isValid(_ verdict: UserAgentClass) -> Bool {
        switch verdict.label {
        case .bot: return verdict.platform == .other
        case .preview: return verdict.platform != .desktop
        case .human: return true
        }
    }

    @Test("a million random and mutated byte strings classify without crashing")
    func randomBytes() {
        let classifier = UserAgentClassifier.standard
        var generator = SeededGenerator(seed: 0x5EED)
        let capacity = 4096
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        var invalid = 0
        for round in 0..<1_000_000 {
            var length = Int(generator.next() % 96)
            if round % 1_000 == 0 { length = capacity }
            var index = 0
            while index < length {
                let roll = generator.next()
                if roll % 8 == 0 {
                    let fragment = Self.fragments[Int(roll >> 8) % Self.fragments.count]
                    for byte in fragment where index < length {
                        buffer[index] = byte
                        index += 1
                    }
                } else {
                    // Mostly printable ASCII, sometimes any byte (invalid UTF-8, NUL).
                    buffer[index] =
                        roll % 5 == 0 ? UInt8(truncatingIfNeeded: roll >> 16) : UInt8(0x20 + (roll >> 16) % 95)
                    index += 1
                }
            }
            let verdict = classifier.classify(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            if !Self.isValid(verdict) { invalid += 1 }
        }
        #expect(invalid == 0)
    }

    @Test("String inputs with NULs, lone surrogates' replacements and huge lengths are safe")
    func strings() {
        let classifier = UserAgentClassifier.standard
        let odd = ["\u{0}", "\u{0}curl/1", "\u{FFFD}\u{FFFD}", "🦊 Firefox/1", String(repeating: "a", count: 1 << 20)]
        for text in odd {
            #expect(Self.isValid(classifier.classify(text)))
            #expect(Self.isValid(classifier.explain(text).0))
        }
        let invalidUTF8: [UInt8] = [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x90, 0x28, 0xBC, 0x00, 0xFF]
        invalidUTF8.withUnsafeBytes { #expect(Self.isValid(classifier.classify($0))) }
    }

    @Test("a 1 MB User-Agent costs about what a 1 KB one costs")
    func boundedCost() {
        let classifier = UserAgentClassifier.standard
        let kilobyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 10)
        let megabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        func time(_ bytes: [UInt8]) -> Duration {
            bytes.withUnsafeBytes { buffer in
                var best = Duration.seconds(1_000)
                for _ in 0..<5 {
                    let elapsed = ContinuousClock().measure {
                        for _ in 0..<200 { _ = classifier.classify(buffer) }
                    }
                    best = min(best, elapsed)
                }
                return best
            }
        }
        let small = time(kilobyte)
        let large = time(megabyte)
        print("200 × 1 KB: \(small), 200 × 1 MB: \(large)")
        // Scanning the whole megabyte would be ~1000× slower; allow noise only.
        #expect(large < small * 4 + .milliseconds(2))
    }
}
