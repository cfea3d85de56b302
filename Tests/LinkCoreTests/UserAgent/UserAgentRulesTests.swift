import Foundation
import LinkCore
import TestSupport
import Testing

/// The rules file, its compiled copy, and the rule language itself.
@Suite("User-Agent rules")
struct UserAgentRulesTests {
    @Test("the embedded rules are Sources/LinkCore/UserAgent/user-agent-rules.txt, byte for byte")
    func embeddedTextIsTheFile() throws {
        let root = try #require(TestFiles.repositoryRoot)
        let onDisk = try String(
            contentsOfFile: root + "/Sources/LinkCore/UserAgent/user-agent-rules.txt", encoding: .utf8)
        #expect(UserAgentClassifier.rulesText == onDisk)
    }

    @Test("the standard rules compile")
    func standardCompiles() {
        #expect(UserAgentClassifier.standard.ruleCount > 300)
    }

    @Test("weights decide between channels' rules, the earlier line on a tie")
    func weights() throws {
        let classifier = try UserAgentClassifier(
            rules: """
                # comment
                bot bot
                human:250 cubot
                preview:50 linkpreview
                android:10 android
                other:20 "tv;"
                """)
        #expect(classifier.classify("Mozilla (Android; Cubot X)") == UserAgentClass(label: .human, platform: .android))
        #expect(classifier.classify("superbot") == UserAgentClass(label: .bot, platform: .other))
        #expect(classifier.classify("linkpreview bot").label == .bot)  // explicit weight 50 < bot 100
        #expect(classifier.classify("(Android tv; x)").platform == .other)
        #expect(classifier.classify("nothing known") == UserAgentClass(label: .bot, platform: .other))
    }

    @Test("anchors match only at the start and at the end of a whole User-Agent")
    func anchors() throws {
        let classifier = try UserAgentClassifier(
            rules: """
                preview ^viber$
                preview ^whatsapp/
                fetcher-ios " i$"
                """)
        #expect(classifier.classify("Viber").label == .preview)
        #expect(classifier.classify("Viber/1.0").label == .bot)
        #expect(classifier.classify("x WhatsApp/2").label == .bot)
        #expect(classifier.classify("WhatsApp/2.19.31 i") == UserAgentClass(label: .preview, platform: .ios))
        #expect(classifier.classify("WhatsApp/2.19.31 ix").platform == .other)
        // A NUL or control byte cannot forge a sentinel.
        #expect(classifier.classify("x\u{01}whatsapp/2").label == .bot)
        // Past the scanned prefix the end is unknown, so `$` cannot match.
        let long = "WhatsApp/2" + String(repeating: " ", count: UserAgentClassifier.maximumScannedBytes) + " i"
        #expect(classifier.classify(long) == UserAgentClass(label: .preview, platform: .other))
    }

    @Test("\\b matches at token boundaries only, and plain patterns still match across them")
    func boundaries() throws {
        let classifier = try UserAgentClassifier(
            rules: """
                bot \\burl
                bot \\bhealth\\b
                preview ^viber$
                preview \\b/i$
                bot bot/
                human "ot/2 x"
                """)
        #expect(classifier.classify("URL-Checker/1.0").label == .bot)
        #expect(classifier.classify("Get URL 1.0").label == .bot)
        #expect(classifier.classify("Microsoft URLControl").label == .bot)
        // Inside another word: no match (and nothing else names an OS here, so the default decides).
        #expect(
            try UserAgentClassifier(rules: "bot \\burl\nios cfnetwork/").classify(
                "lifegateburleson/10 CFNetwork/672 Darwin/14.0.0"
            ).label == .human)
        #expect(classifier.classify("Route 53 Health Check").label == .bot)
        #expect(
            try UserAgentClassifier(rules: "bot \\bhealth\\b\nios cfnetwork/").classify(
                "Elevation_Health/2.9 CFNetwork/672 Darwin/14.0.0"
            ).label == .human)
        #expect(
            try UserAgentClassifier(rules: "bot \\bhealth\\b\nios cfnetwork/").classify(
                "MyHealthApp/2.9 CFNetwork/672 Darwin/14.0.0"
            ).label == .human)
        // Anchors and boundaries together, at either end; a non-word byte before `\\b/` needs a word byte.
        #expect(classifier.classify("Viber").label == .preview)
        #expect(classifier.classify("WhatsApp/2.19/i").label == .preview)
        #expect(classifier.classify("WhatsApp/2.19 /i").label == .bot)
        // Plain patterns cross word/non-word changes exactly as before.
        #expect(classifier.classify("Googlebot/2.1").label == .bot)
        #expect(classifier.classify("Robot/2 x").label == .human)
        // A boundary between two bytes of the same kind can never hold: refused.
        for text in ["bot ab\\bcd", "bot a/\\b/", "bot ^\\b/x", "bot x/\\b$", "bot \\b\\burl"] {
            #expect(throws: UserAgentRuleError.self) { try UserAgentClassifier(rules: text) }
        }
    }

    @Test("malformed lines are rejected with their line number")
    func malformed() {
        for text in ["bot", "robot curl", "bot:x curl", "bot \"\"", "bot:99999 curl"] {
            #expect(throws: UserAgentRuleError.self) { try UserAgentClassifier(rules: "# c\n" + text) }
        }
        do {
            _ = try UserAgentClassifier(rules: "\n\nrobot curl")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("line 3"))
        }
    }
}
