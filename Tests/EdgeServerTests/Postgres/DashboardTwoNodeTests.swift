import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

/// The dashboard's forms on two `tolt-edge serve` nodes of one PostgreSQL database, posted at once: a partner name
/// is checked in the importer's loop, so a double submit (or two people) never makes two partners of one name; and
/// many saves at once are each saved, or answered with the dashboard's busy page, never the API's JSON `500`.
@Suite struct DashboardTwoNodeTests {
    struct Answer: Sendable {
        var name: String
        var status: Int
        var text: String
        var retryAfter: String?
    }

    @Test func addPartnerPostedAtOnceOnTwoNodesMakesOnePartnerPerNameAndNeverA500() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = PostgresStore(url: url)
        try store.migrate()
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(ConfigFixtures.standard.utf8)), into: store)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let nodes = try TwoNodeTests.nodes(of: url, in: directory)
        defer { for node in nodes { node.stop(within: 20) } }
        let client = nodes[0].client()
        let session = try client.dashboardSession()
        let token = try #require(
            DashboardForms.csrfToken(in: try client.dashboardPage("/dashboard", session: session).text))
        let ports = nodes.map(\.port)
        func post(_ count: Int, _ fields: @escaping @Sendable (Int) -> (name: String, code: String)) throws -> [Answer]
        {
            try ClaimConcurrencyTests.race(count) { index in
                let (name, code) = fields(index)
                let response = try HTTPClient(port: ports[index % 2]).dashboardPost(
                    "/dashboard/partners", session: session,
                    fields: [("csrf_token", token), ("program_id", "prg_acme"), ("name", name), ("code", code)])
                return Answer(
                    name: name, status: response.status, text: response.text,
                    retryAfter: response.header("retry-after"))
            }.map { try $0.get() }
        }
        func partners(named prefix: String) throws -> [String: Int] {
            try store.configRecords().partners.filter { $0.name.hasPrefix(prefix) }.reduce(into: [:]) {
                $0[$1.name, default: 0] += 1
            }
        }

        // Eight names, each posted four times at once, two on each node: one partner each, the others refused.
        let twins = try post(32) { index in ("Twin\(index / 4)", "") }
        for name in Set(twins.map(\.name)) {
            let answers = twins.filter { $0.name == name }
            #expect(answers.filter { $0.status == 303 }.count == 1, "\(name): \(answers.map(\.status))")
            for refused in answers where refused.status != 303 {
                #expect(
                    (refused.status == 400 && refused.text.contains("already has a partner named \(name)"))
                        || Self.isBusyPage(refused), "\(name): \(refused.status) \(refused.text)")
            }
        }
        let twinCounts = try partners(named: "Twin")
        #expect(twinCounts.values.allSatisfy { $0 == 1 }, "\(twinCounts)")
        #expect(Set(twinCounts.keys) == Set(twins.filter { $0.status == 303 }.map(\.name)))

        // Forty different partners at once: each saved, or the busy page with Retry-After; never a JSON 500.
        let many = try post(40) { index in ("Many\(index)", "MANY\(index)") }
        for answer in many where answer.status != 303 {
            #expect(Self.isBusyPage(answer), "\(answer.name): \(answer.status) \(answer.text)")
        }
        let saved = Set(many.filter { $0.status == 303 }.map(\.name))
        #expect(Set(try partners(named: "Many").keys) == saved, "exactly the partners answered 303 were saved")
    }

    /// The dashboard's answer to a save that lost every retry to other writers.
    static func isBusyPage(_ answer: Answer) -> Bool {
        answer.status == 503 && answer.retryAfter == "1" && answer.text.contains("<h1>Busy</h1>")
    }
}
