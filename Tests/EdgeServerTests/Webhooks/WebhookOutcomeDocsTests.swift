import LinkCore
import TestSupport
import Testing

/// The webhook answers each event with an `outcome`, which `/v1/webhook_events` lists and `/metrics` counts: someone
/// who alerts on one or reconciles by it reads its meaning in the README. Five of them (`refunded`,
/// `refund_reversed`, `status_changed`, `stale_status`, `transferred`) were answered but never written there.
@Suite struct WebhookOutcomeDocsTests {
    @Test func theREADMEsWebhookSectionNamesEveryOutcome() throws {
        let root = try #require(TestFiles.repositoryRoot, "no Package.swift above \(#filePath)")
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let start = try #require(readme.firstRange(of: "### `POST /webhooks/revenuecat/"), "no webhook section")
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.firstRange(of: "\n### ")?.lowerBound ?? rest.endIndex)]
        let missing = WebhookOutcome.allCases.map(\.rawValue).filter { !section.contains("`\($0)`") }
        #expect(missing.isEmpty, "the README's webhook section does not name \(missing)")
    }
}
