import EdgeStore
import LinkCore

/// Generates a benchmark organization and its traffic into a store, through the store's own seams: the config
/// import, `ingest` (one transaction per ``batchSize`` clicks, so the hourly counts are written as the ingester
/// writes them), `claim`, and `recordWebhookEvent` with the real commission planner. Deterministic for a seed.
struct BenchStoreFiller {
    static let publicKey = "pk_bench"
    static let secretKey = "sk_bench_secret"
    static let organizationID = "org_bench"
    static let programCount = 4
    /// Clicks per ingest transaction.
    static let batchSize = 50_000

    /// What to generate. `end` is the newest time (milliseconds since 1970); clicks fill the `days` before it.
    struct Plan {
        var clicks: Int
        var partners: Int
        var customers: Int
        var days: Int
        var seed: UInt64
        var end: Int64
    }

    /// What the store holds afterwards.
    struct Filled {
        var clicks = 0
        var taps = 0
        var customers = 0
        var commissions = 0
        var events = 0
    }

    /// One generated partner: its program and its first code's reference (click ids carry it).
    struct Partner {
        var id: String
        var programID: String
        var code: String
        var reference: UInt32
    }

    let store: any Store
    let plan: Plan

    /// Fills the store; `progress` receives a line now and then.
    func fill(progress: (String) -> Void) throws -> Filled {
        var random = BenchRandom(seed: plan.seed)
        try ConfigImporter.importDocument(try ConfigDocument(json: Array(configJSON().utf8)), into: store)
        let partners = try storedPartners()
        var filled = Filled()
        // A few click ids of each partner, for the customers' click claims.
        var recentClicks = [[(id: String, at: Int64)]](repeating: [], count: partners.count)
        try fillClicks(partners, &random, &filled, &recentClicks, progress: progress)
        try fillCustomers(partners, recentClicks, &random, &filled, progress: progress)
        return filled
    }

    /// The organization, its programs (a 20% recurring commission each), partners (every 20th inactive) and their
    /// codes (every 5th partner has a second, inactive one), in the import form.
    private func configJSON() -> String {
        var programs: [String] = []
        for program in 0..<Self.programCount {
            var partners: [String] = []
            for partner in stride(from: program, to: plan.partners, by: Self.programCount) {
                let code = Self.code(partner)
                var codes = [#"{"code":"\#(code)","active":true}"#]
                if partner % 5 == 4 { codes.append(#"{"code":"\#(code)X","active":false}"#) }
                partners.append(
                    #"{"id":"\#(Self.partnerID(partner))","name":"Partner \#(partner + 1)","#
                        + #""status":"\#(partner % 20 == 19 ? "inactive" : "active")","#
                        + #""codes":[\#(codes.joined(separator: ","))]}"#)
            }
            programs.append(
                #"{"id":"prg_bench_\#(program + 1)","name":"Bench App \#(program + 1)","claim_window_days":30,"#
                    + #""app_links":{"deep_link_template":"benchapp://claim?tolt_code={code}&tolt_click={click_id}","#
                    + #""google_play_url":"https://play.google.com/store/apps/details?id=com.bench.app\#(program + 1)","#
                    + #""app_store_url":"https://apps.apple.com/app/id10000000\#(program + 1)"},"#
                    + #""commission":{"percent":20,"recurring":true},"#
                    + #""partners":[\#(partners.joined(separator: ","))]}"#)
        }
        return #"{"organizations":[{"id":"\#(Self.organizationID)","name":"Bench","#
            + #""public_key":"\#(Self.publicKey)","secret_key":"\#(Self.secretKey)","#
            + #""revenuecat":{"authorization":"Bearer bench"},"#
            + #""programs":[\#(programs.joined(separator: ","))]}]}"#
    }

    /// `part_bench_00001` for index 0: zero-padded, so that ids sort in index order.
    static func partnerID(_ index: Int) -> String {
        let digits = String(index + 1)
        return "part_bench_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    static func code(_ index: Int) -> String { "P\(index + 1)" }

    /// The partners as stored, in index order, with their first code's reference.
    private func storedPartners() throws -> [Partner] {
        let records = try store.configRecords()
        var references: [String: UInt32] = [:]
        for code in records.codes where code.active { references[code.partnerID] = code.reference }
        let programs = Dictionary(
            records.partners.map { ($0.id, $0.programID) }, uniquingKeysWith: { first, _ in first })
        return try (0..<plan.partners).map { index in
            let id = Self.partnerID(index)
            guard let program = programs[id], let reference = references[id] else {
                throw StoreError.database("the imported partner \(id) is missing")
            }
            return Partner(id: id, programID: program, code: Self.code(index), reference: reference)
        }
    }
}
