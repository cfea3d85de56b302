import LinkCore
import TestSupport
import Testing

/// Which phone sent a string must not decide whether a person or a tool sent it: the label of every corpus string
/// with an Android comment stays the same when its device model is another phone's.
///
/// Rules about models exist only to keep phones named like crawlers people ("Cubot", "M bot 60", "Spider 8"); a
/// rule fitted to a model seen in one string would show here as a crawler or a person that changes label with the
/// phone. Each model in `(Linux; [U; ]Android <version>; [<locale>; ]<model>[ Build/…])` is replaced by two common
/// phones'. Only the label is compared: a Chromebook's model is what makes its platform a desktop.
@Suite("User-Agent labels across device models")
struct UserAgentDeviceModelTests {
    static let otherModels = ["Pixel 7", "SM-A515F"]

    /// The range of the device model in `userAgent`'s Android comment, if it has one of that shape.
    static func modelRange(in userAgent: String) -> Range<String.Index>? {
        guard let comment = userAgent.range(of: "(Linux; ") else { return nil }
        var rest = userAgent[comment.upperBound...]
        if rest.hasPrefix("U; ") { rest = rest.dropFirst(3) }
        guard rest.hasPrefix("Android ") else { return nil }
        rest = rest.dropFirst("Android ".count)
        guard let afterVersion = rest.firstIndex(of: ";"),
            rest[..<afterVersion].allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        rest = rest[afterVersion...].dropFirst()
        guard rest.hasPrefix(" ") else { return nil }
        rest = rest.dropFirst()
        if let end = rest.firstIndex(of: ";"), isLocale(rest[..<end]) {
            rest = rest[end...].dropFirst().drop { $0 == " " }
        }
        let end = rest.firstIndex { $0 == ";" || $0 == ")" } ?? rest.endIndex
        var model = rest[..<end]
        if let build = model.range(of: " Build/") { model = model[..<build.lowerBound] }
        return model.isEmpty ? nil : model.startIndex..<model.endIndex
    }

    /// "en-us", "zh_CN", "fr-FR": two letters, a dash or underscore, two letters.
    static func isLocale(_ field: Substring) -> Bool {
        let characters = Array(field)
        guard characters.count == 5, characters[2] == "-" || characters[2] == "_" else { return false }
        return [0, 1, 3, 4].allSatisfy { characters[$0].isLetter }
    }

    @Test("the model is found in the Android comment's shapes, and only there")
    func modelShape() {
        func model(_ userAgent: String) -> String? { Self.modelRange(in: userAgent).map { String(userAgent[$0]) } }
        #expect(model("Mozilla/5.0 (Linux; Android 13; SM-G991B) AppleWebKit/537.36") == "SM-G991B")
        #expect(model("Mozilla/5.0 (Linux; U; Android 4.1.1; en-us; MB886 Build/9.8.0Q) AppleWebKit/534.30") == "MB886")
        #expect(model("Dalvik/2.1.0 (Linux; U; Android 9; M bot 60 Build/PPR1.180610.011)") == "M bot 60")
        #expect(model("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36") == nil)
    }

    @Test("every corpus string with an Android comment keeps its label on another phone")
    func labelsDoNotDependOnTheModel() throws {
        let (changed, flipped) = try UserAgentVariants.changes(
            made: { userAgent in
                guard let range = Self.modelRange(in: userAgent) else { return [] }
                return Self.otherModels.map { model in
                    var other = userAgent
                    other.replaceSubrange(range, with: model)
                    return other
                }
            }, in: \.label)
        print("device models replaced in \(changed) corpus strings; labels changed: \(flipped.count)")
        #expect(changed > 7_000)
        #expect(flipped.isEmpty, "\(flipped.prefix(20).joined(separator: "\n"))")
    }
}
