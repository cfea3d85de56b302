import Foundation
import LinkCore

/// The figures the product's targets are stated in, for one set of corpus rows judged by one classifier.
///
/// Shared by the whole-corpus test and the source-grouped fold test so both count the same way: a person
/// called a bot is routed like `other`, and rows whose platform label is disputed
/// (``UserAgentCorpusTests/disputedPlatform``) are left out of the platform figures only.
struct UserAgentScore {
    var labels = ConfusionMatrix<UserAgentLabel>(order: [.human, .bot, .preview])
    var platforms = ConfusionMatrix<Platform>(order: [.ios, .android, .desktop, .other])

    init(rows: some Sequence<UserAgentCorpus.Row>, classifier: UserAgentClassifier) {
        for row in rows {
            let verdict = classifier.classify(row.userAgent)
            labels.add(expected: row.label, predicted: verdict.label)
            if row.label == .human, UserAgentCorpusTests.disputedPlatform[row.userAgent] == nil {
                platforms.add(expected: row.platform, predicted: verdict.label == .human ? verdict.platform : .other)
            }
        }
    }

    var previewRecall: Double { labels.recall(.preview) }
    /// Bots and previews not taken for people.
    var nonHumanRecall: Double {
        let nonHuman = labels.expected(.bot) + labels.expected(.preview)
        let missed = labels.count(.bot, .human) + labels.count(.preview, .human)
        return nonHuman == 0 ? 1 : 1 - Double(missed) / Double(nonHuman)
    }
    /// People taken for a bot or a preview fetcher.
    var peopleAsBotsRate: Double {
        let people = labels.expected(.human)
        return people == 0 ? 0 : Double(labels.count(.human, .bot) + labels.count(.human, .preview)) / Double(people)
    }
    var platformAccuracy: Double { Double(platforms.correct) / Double(max(1, platforms.total)) }

    /// Precision and recall of one platform; 1 when the rows hold none of it and none was predicted, so a fold
    /// without iPhones is not failed for them.
    func precision(_ platform: Platform) -> Double {
        platforms.predicted(platform) == 0 ? 1 : platforms.precision(platform)
    }
    func recall(_ platform: Platform) -> Double { platforms.expected(platform) == 0 ? 1 : platforms.recall(platform) }

    /// The targets of issue 15, by name, with whether this score meets each.
    var targets: [(name: String, met: Bool)] {
        [
            ("previews ≥ 0.99", previewRecall >= 0.99),
            ("non-human recall ≥ 0.97", nonHumanRecall >= 0.97),
            ("people taken for bots ≤ 0.5%", peopleAsBotsRate <= 0.005),
            ("iOS precision ≥ 0.99", precision(.ios) >= 0.99),
            ("iOS recall ≥ 0.99", recall(.ios) >= 0.99),
            ("Android precision ≥ 0.99", precision(.android) >= 0.99),
            ("Android recall ≥ 0.99", recall(.android) >= 0.99),
            ("platform accuracy ≥ 0.95", platformAccuracy >= 0.95),
        ]
    }

    /// One line: row count, then every figure a target is set on.
    var summary: String {
        let previews = "\(labels.count(.preview, .preview))/\(labels.expected(.preview))"
        let people = labels.count(.human, .bot) + labels.count(.human, .preview)
        return "rows \(labels.total), previews \(previews) = \(ratio(previewRecall)), "
            + "non-human \(ratio(nonHumanRecall)), people→bot \(people)/\(labels.expected(.human)) = "
            + String(format: "%.2f%%", peopleAsBotsRate * 100) + ", "
            + "iOS P/R \(ratio(precision(.ios)))/\(ratio(recall(.ios))), "
            + "Android P/R \(ratio(precision(.android)))/\(ratio(recall(.android))), "
            + "platform \(ratio(platformAccuracy))"
    }

    private func ratio(_ value: Double) -> String { String(format: "%.3f", value) }
}
