import LinkCore
import TestSupport

/// Corpus strings made into variants of themselves (the next version of each product, another phone), for the
/// tests that a verdict does not depend on what a variant changes.
enum UserAgentVariants {
    /// How many variants `variants` makes of the corpus strings, and each whose `aspect` of the verdict differs from
    /// its original's, as "before → after: variant".
    static func changes<Aspect: Equatable>(
        made variants: (String) -> [String], in aspect: (UserAgentClass) -> Aspect
    ) throws -> (tried: Int, changed: [String]) {
        let classifier = UserAgentClassifier.standard
        var tried = 0
        var changed: [String] = []
        for row in try UserAgentCorpus.load().rows {
            let original = aspect(classifier.classify(row.userAgent))
            for variant in variants(row.userAgent) {
                tried += 1
                let other = aspect(classifier.classify(variant))
                if other != original { changed.append("\(original) → \(other): \(variant)") }
            }
        }
        return (tried, changed)
    }
}
