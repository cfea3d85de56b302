import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// The import against a million seeded mutations of a real configuration file: each is refused with a message
/// naming what is wrong, or planned into records that every rule holds for; nothing crashes.
@Suite struct ConfigImportFuzzTests {
    static let seed = Array(
        #"""
        {"organizations":[{"id":"org_f","name":"F","public_key":"pk_f","secret_key":"sk_f_secret",
          "revenuecat":{"authorization":"Bearer rc_fuzz_value"},
          "programs":[{"id":"prg_f","name":"F App","claim_window_days":30,
            "app_links":{"deep_link_template":"fapp://c?code={code}&click={click_id}",
                         "google_play_url":"https://play.google.com/store/apps/details?id=f"},
            "commission":{"percent":12.5,"recurring":false,"duration_months":6},
            "partners":[{"id":"part_f","name":"Fay","status":"active","codes":[{"code":"FAY10","active":true}]}]}]}]}
        """#.utf8)
    static let alphabet = Array(#"{}[]":,0123456789.-_ {}abcdefhkoprstuvxyz/:?&=%"#.utf8) + [0x00, 0x0A, 0xE2]

    @Test func aMillionMutatedImportsAreRefusedByNameOrPlannedValid() async {
        var generator = SeededGenerator(seed: 0xC0F1)
        let cases = SeededGenerator.cases(1_000_000)
        var planned = 0
        for index in 0..<cases {
            // A long loop on the cooperative pool would starve the async tests running beside it.
            if index % 4096 == 0 { await Task.yield() }
            let bytes = generator.mutate(Self.seed, alphabet: index % 4 == 0 ? [] : Self.alphabet)
            do {
                let document = try ConfigDocument(json: bytes)
                let merge = try ConfigMerge(document: document, existing: ConfigRecords())
                planned += 1
                if let problem = Self.problem(merge.changes) {
                    Issue.record("case \(index): \(problem) planned from \(String(decoding: bytes, as: UTF8.self))")
                    return
                }
            } catch let error as StoreError {
                guard !error.message.isEmpty else {
                    Issue.record("case \(index): an error without a message")
                    return
                }
            } catch {
                Issue.record("case \(index): \(error) is not a StoreError")
                return
            }
        }
        #expect(planned > 0 && planned < cases, "both outcomes are reached: \(planned) of \(cases) planned")
    }

    /// What a planned configuration breaks, if anything.
    static func problem(_ changes: ConfigChanges) -> String? {
        for organization in changes.organizations {
            guard SecretDigest.isDigest(organization.secretKeyDigest) else { return "a secret key kept in clear" }
            if let digest = organization.revenueCatAuthorizationDigest, !SecretDigest.isDigest(digest) {
                return "an authorization kept in clear"
            }
        }
        for program in changes.programs {
            // Every template is new here (the store is empty), so it passes the checks of a template being written.
            if let template = program.deepLinkTemplate, (try? DeepLinkTemplate(template).validateLiteralText()) == nil {
                return "an invalid template \(template)"
            }
            for url in [program.googlePlayURL, program.appStoreURL].compactMap({ $0 })
            where (try? URLRules.validatePageURL(url)) == nil {
                return "an invalid store URL \(url)"
            }
            if let days = program.claimWindowDays, !(1...3650).contains(days) { return "a window of \(days) days" }
            if let rule = program.commission {
                switch rule.amount {
                case .percent(let points) where !(1...10_000).contains(points): return "a percent of \(points) bp"
                case .fixedCents(let cents) where !(1...CommissionRule.maximumFixedCents).contains(cents):
                    return "a fixed amount of \(cents)"
                default: break
                }
            }
        }
        for code in changes.codes
        where (try? CodeRules.validate(code.code)) == nil || CodeRules.isDotSegment(code.code)
            || CodeRules.containsWhitespace(code.code) || CodeRules.containsInvisible(code.code)
        {
            return "an invalid code \(code.code)"
        }
        return nil
    }
}
