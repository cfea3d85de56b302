import TestSupport
import Testing

@testable import LinkCore

/// Which phone sent a string must not decide whether a person or a tool sent it: the label of every corpus string
/// with an Android comment stays the same when its device model is another phone's.
///
/// Rules about models exist only to keep phones named like crawlers people ("Cubot", "M bot 60", "Spider 8"); a
/// rule fitted to a model seen in one string would show here as a crawler or a person that changes label with the
/// phone. The model field is the one the classifier itself reads (``UserAgentClassifier/androidModel(in:)``:
/// `(Linux; [U; ]Android <version>; [<locale>; ]<model>[ Build/…])`), replaced by two common phones'. Only the
/// label is compared: a Chromebook's model is what makes its platform a desktop.
@Suite("User-Agent labels across device models")
struct UserAgentDeviceModelTests {
    static let otherModels = ["Pixel 7", "SM-A515F"]

    /// `userAgent` with its Android comment's device model replaced by each of `otherModels`; none without one.
    static func onOtherPhones(_ userAgent: String) -> [String] {
        let bytes = Array(userAgent.utf8)
        guard let model = bytes.withUnsafeBytes({ UserAgentClassifier.androidModel(in: $0) }) else { return [] }
        return otherModels.map { other in
            String(decoding: bytes[..<model.lowerBound] + Array(other.utf8) + bytes[model.upperBound...], as: UTF8.self)
        }
    }

    @Test("every corpus string with an Android comment keeps its label on another phone")
    func labelsDoNotDependOnTheModel() throws {
        let (tried, flipped) = try UserAgentVariants.changes(made: Self.onOtherPhones, in: \.label)
        print("corpus strings on other phones: \(tried); labels changed: \(flipped.count)")
        #expect(tried > 7_000)
        #expect(flipped.isEmpty, "\(flipped.prefix(20).joined(separator: "\n"))")
    }
}
