import Foundation
import LinkCore
import Testing

/// Judges the standard rules against the labelled development corpus.
///
/// The thresholds are the product's requirements, not the corpus's current
/// score: a person taken for a bot loses a partner's click, a bot taken for a
/// person pays for a click nobody made, and a preview fetcher that is not
/// recognised shows a redirect instead of a link card.
@Suite("User-Agent corpus")
struct UserAgentCorpusTests {
    /// Rows whose platform label we believe is wrong, kept out of the platform
    /// metrics (and printed) instead of bending a rule to fit them. They come
    /// from isbot's browser fixtures, which carry no OS, so the corpus defaulted
    /// them to `other`; a bare `CFNetwork/… Darwin/…` app client is an iOS (or
    /// macOS) app, and the rules call it iOS. Also listed in the review notes.
    static let disputedPlatform: [String: String] = [
        "AppName/1 CFNetwork/758.1.2 Darwin/15.0.0": "CFNetwork app client, no tvOS/watchOS marker",
        "Viber/12.8.0.1 CFNetwork/1121.2.2 Darwin/19.3.0": "Viber's iOS app",
        "com.apple.WebKit.Networking/8613.3.9.0.16 CFNetwork/1335.0.3 Darwin/21.6.0":
            "WebKit networking process, iOS 15",
        "hulu/50000130 cfnetwork/976 darwin/18.2.0": "Hulu app on iOS 12 (tvOS would say AppleTV)",
    ]

    @Test("labels and platforms of ua-dev.tsv meet the targets")
    func corpusMeetsTargets() throws {
        let corpus = try UserAgentCorpus.load()
        #expect(corpus.rows.count > 10_000)
        let classifier = UserAgentClassifier.standard
        var labels = ConfusionMatrix<UserAgentLabel>(order: [.human, .bot, .preview])
        var platforms = ConfusionMatrix<Platform>(order: [.ios, .android, .desktop, .other])
        // The same matrix with the disputed rows counted as labelled, printed so the exclusion stays visible.
        var platformsAsLabelled = ConfusionMatrix<Platform>(order: [.ios, .android, .desktop, .other])
        for row in corpus.rows {
            let verdict = classifier.classify(row.userAgent)
            labels.add(expected: row.label, predicted: verdict.label)
            if row.label == .human {
                platformsAsLabelled.add(
                    expected: row.platform, predicted: verdict.label == .human ? verdict.platform : .other)
            }
            if row.label == .human, let reason = Self.disputedPlatform[row.userAgent] {
                print(
                    "disputed platform (not counted): \(row.platform.rawValue) → \(verdict.platform.rawValue): \(reason)"
                )
            } else if row.label == .human {
                // A person called a bot is routed like `other`: count it so.
                platforms.add(expected: row.platform, predicted: verdict.label == .human ? verdict.platform : .other)
            }
        }

        let nonHuman = labels.expected(.bot) + labels.expected(.preview)
        let nonHumanAsHuman = labels.count(.bot, .human) + labels.count(.preview, .human)
        let people = labels.expected(.human)
        let peopleAsBots = labels.count(.human, .bot) + labels.count(.human, .preview)
        let missedHumanRate = Double(nonHumanAsHuman) / Double(nonHuman)
        let peopleAsBotsRate = Double(peopleAsBots) / Double(people)
        let previewRecall = labels.recall(.preview)
        let platformAccuracy = Double(platforms.correct) / Double(platforms.total)

        print(labels.rendered(title: "label"))
        print(platforms.rendered(title: "platform"))
        print(
            """
            non-human taken for human: \(nonHumanAsHuman)/\(nonHuman) = \(percent(missedHumanRate)) (target ≤ 3%)
            people taken for bot/preview: \(peopleAsBots)/\(people) = \(percent(peopleAsBotsRate)) (target ≤ 0.5%)
            preview fetchers found: \(percent(previewRecall)) (target ≥ 99%)
            ios precision \(ratio(platforms.precision(.ios))) recall \(ratio(platforms.recall(.ios))) \
            (with the disputed rows counted as labelled: precision \(ratio(platformsAsLabelled.precision(.ios))))
            android precision \(ratio(platforms.precision(.android))) recall \(ratio(platforms.recall(.android)))
            desktop precision \(ratio(platforms.precision(.desktop))) recall \(ratio(platforms.recall(.desktop)))
            platform accuracy for people: \(ratio(platformAccuracy)) (target ≥ 0.95)
            """)

        #expect(missedHumanRate <= 0.03)
        #expect(peopleAsBotsRate <= 0.005)
        #expect(previewRecall >= 0.99)
        #expect(platforms.precision(.ios) >= 0.99)
        #expect(platforms.recall(.ios) >= 0.99)
        #expect(platforms.precision(.android) >= 0.99)
        #expect(platforms.recall(.android) >= 0.99)
        #expect(platformAccuracy >= 0.95)
    }

    @Test("the byte and String entry points agree on the corpus")
    func bytesAndStringAgree() throws {
        let corpus = try UserAgentCorpus.load()
        let classifier = UserAgentClassifier.standard
        for row in corpus.rows.prefix(2_000) {
            var userAgent = row.userAgent
            let fromBytes = userAgent.withUTF8 { classifier.classify(UnsafeRawBufferPointer($0)) }
            #expect(fromBytes == classifier.classify(row.userAgent))
            #expect(classifier.explain(row.userAgent).0 == fromBytes)
        }
    }

    private func percent(_ value: Double) -> String { String(format: "%.2f%%", value * 100) }
    private func ratio(_ value: Double) -> String { String(format: "%.4f", value) }
}
