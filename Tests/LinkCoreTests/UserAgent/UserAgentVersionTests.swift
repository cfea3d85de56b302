import LinkCore
import TestSupport
import Testing

/// A product at its next version is the same product: the verdict on a corpus string must not change when its
/// version numbers do.
///
/// The half of the corpus kept aside for independent checks holds, among others, the same browsers, apps and
/// crawlers at other versions; a rule pinned to a version ("Pinterest/0." for Pinterest's crawler, which says
/// "Pinterest/0.2 (+https://www.pinterest.com/bot.html)" today) would miss them. Every version that follows a
/// product's "/" is raised ("Chrome/120.0.6099.43" → "Chrome/121.1.6100.44", "Darwin/22.5.0" → "Darwin/23.6.1");
/// Mozilla's own token is left alone, since "Mozilla/3.0" and "Mozilla/4.0" do tell eras of browsers apart.
@Suite("User-Agent verdicts across versions")
struct UserAgentVersionTests {
    /// `userAgent` with each version after a product's "/" raised by one in every number, up to a delimiter
    /// (space, ";", "(", ")", "," or the end); a number run into letters ("105.0.0.0MQQBrowser") is left alone.
    static func nextVersion(of userAgent: String) -> String {
        let bytes = Array(userAgent.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            out.append(bytes[index])
            guard bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, isDigit(bytes[index + 1]),
                !isMozilla(bytes, slash: index)
            else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, continuesVersion(bytes, at: end) { end += 1 }
            let delimited = end == bytes.count || " ;(),".utf8.contains(bytes[end])
            let version = Array(bytes[(index + 1)..<end])
            out += delimited ? raised(version) : version
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A digit, or a "." or "_" with a digit after it.
    static func continuesVersion(_ bytes: [UInt8], at index: Int) -> Bool {
        if isDigit(bytes[index]) { return true }
        return isSeparator(bytes[index]) && index + 1 < bytes.count && isDigit(bytes[index + 1])
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") }

    static func isMozilla(_ bytes: [UInt8], slash: Int) -> Bool {
        guard slash >= 7 else { return false }
        return String(decoding: bytes[(slash - 7)..<slash], as: UTF8.self).lowercased() == "mozilla"
    }

    /// Each run of digits plus one, as wide as it was ("045223" → "045224"); runs of nine digits or more (build
    /// numbers, dates) are kept.
    static func raised(_ version: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < version.count {
            guard isDigit(version[start]) else {
                out.append(version[start])
                start += 1
                continue
            }
            var end = start
            while end < version.count, isDigit(version[end]) { end += 1 }
            let digits = version[start..<end]
            if digits.count < 9, let number = Int(String(decoding: digits, as: UTF8.self)) {
                let next = Array(String(number + 1).utf8)
                out += [UInt8](repeating: UInt8(ascii: "0"), count: max(0, digits.count - next.count)) + next
            } else {
                out += digits
            }
            start = end
        }
        return out
    }

    @Test("raising versions leaves Mozilla's token and numbers run into names alone")
    func nextVersionShape() {
        #expect(
            Self.nextVersion(of: "Mozilla/5.0 (X11) AppleWebKit/537.36 Chrome/120.0.6099.43 Safari/537.36")
                == "Mozilla/5.0 (X11) AppleWebKit/538.37 Chrome/121.1.6100.44 Safari/538.37")
        #expect(
            Self.nextVersion(of: "Pinterest/0.2 (+https://www.pinterest.com/bot.html)")
                == "Pinterest/1.3 (+https://www.pinterest.com/bot.html)")
        #expect(
            Self.nextVersion(of: "Chrome/105.0.0.0MQQBrowser/6.2 TBS/045223")
                == "Chrome/105.0.0.0MQQBrowser/7.3 TBS/045224")
        #expect(Self.nextVersion(of: "Darwin/22.5.0") == "Darwin/23.6.1")
        #expect(Self.nextVersion(of: "FBBV/1017839690;") == "FBBV/1017839690;")
    }

    @Test("every corpus string keeps its verdict at the next version of each product it names")
    func verdictsDoNotDependOnVersions() throws {
        let (tried, flipped) = try UserAgentVariants.changes(
            made: { userAgent in
                let next = Self.nextVersion(of: userAgent)
                return next == userAgent ? [] : [next]
            }, in: { $0 })
        print("versions raised in \(tried) corpus strings; verdicts changed: \(flipped.count)")
        #expect(tried > 9_000)
        #expect(flipped.isEmpty, "\(flipped.prefix(20).joined(separator: "\n"))")
    }
}
