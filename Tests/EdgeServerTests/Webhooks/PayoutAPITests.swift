import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `POST /v1/payouts`, `GET /v1/payouts`, `GET /v1/partners` and the commissions' payout fields and filters, over
/// a real server on each store: what a payout takes and takes back, that racing posts take each commission once,
/// and that every bad request is refused naming its field with nothing written.
@Suite struct PayoutAPITests {
    static let key = [("Authorization", "Bearer sk_acme_secret")]

    /// `org_acme` with commissions: `part_sam` 50 cents on each of p1, p2 (refunded), p4 (u1) and p5 (u3), `part_lee`
    /// 500 on p3 (u2): the commissions list's own store (``CommissionListTests/populated(_:)``).
    static func populated(_ kind: StoreKind) throws -> TestServer {
        try CommissionListTests.populated(kind)
    }

    /// Now, as an ISO 8601 time: every commission made so far was created before it.
    static func now() -> String {
        Thread.sleep(forTimeInterval: 0.002)
        return Timestamp.format(Clock.epochMilliseconds())
    }

    static func body(_ fields: String) -> [UInt8] { Array("{\(fields)}".utf8) }

    static func post(_ client: HTTPClient, _ body: [UInt8], headers: [(String, String)]? = nil) throws -> HTTPResponse {
        try client.request(
            "POST", "/v1/payouts", headers: headers ?? (key + [("Content-Type", "application/json")]), body: body)
    }

    /// Posts a payout of `partner` that must be created; returns its `data`.
    static func pay(_ client: HTTPClient, _ partner: String = "part_sam", reference: String? = nil) throws
        -> [String: Any]
    {
        var fields = #""partner_id":"\#(partner)","created_before":"\#(now())""#
        if let reference { fields += #","reference":"\#(reference)""# }
        let response = try post(client, body(fields))
        guard response.status == 201, let data = response.jsonObject?["data"] as? [String: Any] else {
            throw TestError("POST /v1/payouts: \(response.status) \(response.text)")
        }
        return data
    }

    static func get(_ client: HTTPClient, _ path: String) throws -> [String: Any] {
        let response = try client.request("GET", path, headers: key)
        guard response.status == 200, let object = response.jsonObject else {
            throw TestError("GET \(path): \(response.status) \(response.text)")
        }
        return object
    }

    static func data(_ client: HTTPClient, _ path: String) throws -> [[String: Any]] {
        try get(client, path)["data"] as? [[String: Any]] ?? []
    }

    /// Each commission's transaction → its `payout_id` and `reversal_payout_id` ("-" for null).
    static func marks(_ client: HTTPClient) throws -> [String: [String]] {
        var marks: [String: [String]] = [:]
        for commission in try client.commissions() {
            marks[commission["transaction_id"] as? String ?? "?"] = [
                commission["payout_id"] as? String ?? "-", commission["reversal_payout_id"] as? String ?? "-",
            ]
        }
        return marks
    }

    static func balance(_ client: HTTPClient, _ partner: String) throws -> [Int] {
        let partners = try data(client, "/v1/partners?limit=100")
        let found = partners.first { $0["id"] as? String == partner } ?? [:]
        return ["unpaid_cents", "owed_back_cents", "paid_cents"].map { found[$0] as? Int ?? -1 }
    }

    @Test(arguments: StoreKind.allCases) func aPayoutPaysWhatIsOwedOnceAndIsListed(kind: StoreKind) throws {
        let server = try Self.populated(kind)
        defer { server.shutdown() }
        let client = server.client()
        #expect(try Self.balance(client, "part_sam") == [150, 0, 0])

        let payout = try Self.pay(client, reference: "PAYPAL-7X2")
        let id = try #require(payout["id"] as? String)
        #expect(id.hasPrefix("pay_"))
        #expect(
            Set(payout.keys) == [
                "id", "partner_id", "created_at", "created_before", "reference", "amount_cents", "currency",
                "commission_count", "commission_cents", "reversal_count", "reversal_cents",
            ])
        #expect(payout["partner_id"] as? String == "part_sam" && payout["reference"] as? String == "PAYPAL-7X2")
        #expect(payout["amount_cents"] as? Int == 150 && payout["commission_count"] as? Int == 3)
        #expect(payout["reversal_count"] as? Int == 0 && payout["currency"] as? String == "USD")
        #expect(
            try Self.marks(client) == [
                "p1": [id, "-"], "p2": ["-", "-"], "p3": ["-", "-"], "p4": [id, "-"], "p5": [id, "-"],
            ])
        #expect(try Self.balance(client, "part_sam") == [0, 0, 150])
        #expect(try Self.balance(client, "part_lee") == [500, 0, 0])
        // Its statement: the commissions it paid.
        let statement = try Self.data(client, "/v1/commissions?payout_id=\(id)")
        #expect(statement.map { $0["transaction_id"] as? String } == ["p5", "p4", "p1"], "\(statement)")
        for (query, says) in [
            ("payout_id=pay_nope", "payout_id pay_nope is no payout of this organization"),
            ("payout_id=comm_1", "payout_id must be a payout id (pay_…)"),
        ] {
            let response = try client.request("GET", "/v1/commissions?\(query)", headers: Self.key)
            #expect(response.isError(400, "invalid_request"), "\(query): \(response.text)")
            #expect(response.jsonObject?["message"] as? String == says, "\(response.text)")
        }
        let foreign = try client.request(
            "GET", "/v1/commissions?payout_id=\(id)", headers: [("Authorization", "Bearer sk_other_secret")])
        #expect(foreign.isError(400, "invalid_request"), "another organization's payout: \(foreign.text)")

        // A retry of the same post (its answer lost): nothing left to pay, nothing written.
        let retry = try Self.post(client, Self.body(#""partner_id":"part_sam","created_before":"\#(Self.now())""#))
        #expect(retry.isError(409, "nothing_to_pay"), "\(retry.text)")
        // With its reference: `200` and the payout recorded first, whatever came in since.
        let again = try Self.post(
            client, Self.body(#""partner_id":"part_sam","created_before":"\#(Self.now())","reference":"PAYPAL-7X2""#))
        #expect(again.status == 200, "\(again.text)")
        #expect((again.jsonObject?["data"] as? [String: Any])?["id"] as? String == id, "\(again.text)")

        let lee = try Self.pay(client, "part_lee")
        let listed = try Self.data(client, "/v1/payouts")
        #expect(listed.map { $0["id"] as? String } == [lee["id"] as? String, id])
        #expect(try Self.data(client, "/v1/payouts?partner_id=part_sam").map { $0["id"] as? String } == [id])
        let first = try Self.get(client, "/v1/payouts?limit=1")
        #expect(first["has_more"] as? Bool == true)
        let next = try Self.data(client, "/v1/payouts?limit=1&starting_after=\(lee["id"] as? String ?? "")")
        #expect(next.map { $0["id"] as? String } == [id])
        #expect(try Self.data(client, "/v1/commissions?paid=true").count == 4)
        #expect(try Self.data(client, "/v1/commissions?paid=false").map { $0["transaction_id"] as? String } == ["p2"])
        // Another organization sees none of them.
        let other = try client.request("GET", "/v1/payouts", headers: [("Authorization", "Bearer sk_other_secret")])
        #expect((other.jsonObject?["data"] as? [Any])?.isEmpty == true, "\(other.text)")

        let metrics = try client.request("GET", "/metrics").text
        #expect(metrics.contains(#"tolt_edge_http_requests_total{route="v1_payouts",code="201"}"#), "\(metrics)")
        #expect(metrics.contains(#"tolt_edge_http_requests_total{route="v1_payouts",code="409"}"#))
        #expect(metrics.contains(#"tolt_edge_http_requests_total{route="v1_partners",code="200"}"#))
    }

    @Test(arguments: StoreKind.allCases) func aRefundAfterThePayoutIsTakenBackFromTheNext(kind: StoreKind) throws {
        let server = try Self.populated(kind)
        defer { server.shutdown() }
        let client = server.client()
        let first = try #require(try Self.pay(client)["id"] as? String)
        try client.deliver(RevenueCatPayload.refund(user: "u1", transaction: "p1"))
        #expect(try Self.balance(client, "part_sam") == [0, 50, 150])

        let negative = try Self.post(
            client, Self.body(#""partner_id":"part_sam","created_before":"\#(Self.now())""#))
        #expect(negative.isError(409, "negative_balance"), "\(negative.text)")
        #expect(try Self.data(client, "/v1/payouts").count == 1, "nothing written")

        try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "u1", price: "10.00", transaction: "p6"))
        let second = try Self.pay(client)
        let id = try #require(second["id"] as? String)
        #expect(second["amount_cents"] as? Int == 150 && second["commission_cents"] as? Int == 200)
        #expect(second["reversal_count"] as? Int == 1 && second["reversal_cents"] as? Int == 50)
        let marks = try Self.marks(client)
        #expect(marks["p1"] == [first, id] && marks["p6"] == [id, "-"] && marks["p4"] == [first, "-"])
        #expect(try Self.balance(client, "part_sam") == [0, 0, 300])
        // The second payout's statement: what it paid (p6) and what it took back (p1), its two sides.
        let statement = try Self.data(client, "/v1/commissions?payout_id=\(id)")
        #expect(statement.map { $0["transaction_id"] as? String } == ["p6", "p1"], "\(statement)")
    }

    /// Eight posts for one partner at once, on eight connections: one takes the commissions, the others find
    /// nothing to pay. (Two nodes on one store: `PayoutStoreTests.racingPayoutsNeverTakeACommissionTwice`.)
    @Test(arguments: StoreKind.allCases) func racingPostsTakeEachCommissionOnce(kind: StoreKind) throws {
        let server = try Self.populated(kind)
        defer { server.shutdown() }
        let before = Self.now()
        let port = server.port
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let client = HTTPClient(port: port)
            let status =
                (try? Self.post(client, Self.body(#""partner_id":"part_sam","created_before":"\#(before)""#)))?.status
                ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.sorted() } == [201] + Array(repeating: 409, count: 7))
        let payouts = try Self.data(server.client(), "/v1/payouts")
        #expect(payouts.count == 1 && payouts.first?["amount_cents"] as? Int == 150)
    }

    @Test(arguments: StoreKind.allCases) func badPostsAreRefusedNamingTheFieldAndWriteNothing(kind: StoreKind) throws {
        let server = try Self.populated(kind)
        defer { server.shutdown() }
        let client = server.client()
        let now = Self.now()
        let later = Timestamp.format(Clock.epochMilliseconds() + 3_600_000)
        let partner = #""partner_id":"part_sam""#
        let before = #""created_before":"\#(now)""#
        let cases: [(body: [UInt8], says: String)] = [
            (Array("not json".utf8), "The body is not valid JSON"),
            (Array("[]".utf8), "The body must be a JSON object"),
            (Self.body(before), "partner_id is required"),
            (Self.body(#""partner_id":null,\#(before)"#), "partner_id is required"),
            (Self.body(#""partner_id":7,\#(before)"#), "partner_id must be a string, not a number"),
            (Self.body(#""partner_id":"",\#(before)"#), "partner_id must not be empty"),
            (Self.body(#""partner_id":"\#(String(repeating: "p", count: 65))",\#(before)"#), "partner_id must be"),
            (Self.body(partner), "created_before is required"),
            (Self.body(#"\#(partner),"created_before":1780000000000"#), "created_before must be a string"),
            (Self.body(#"\#(partner),"created_before":"2026-01-31""#), "created_before must be an ISO 8601 time"),
            (Self.body(#"\#(partner),"created_before":"2026-01-31T12:00:00""#), "created_before must be an ISO"),
            (Self.body(#"\#(partner),"created_before":"\#(later)""#), "created_before must not be after now"),
            (Self.body(#"\#(partner),\#(before),"reference":42"#), "reference must be a string, not a number"),
            (Self.body(#"\#(partner),\#(before),"reference":"""#), "reference must not be empty"),
            (Self.body(#"\#(partner),\#(before),"reference":"   ""#), "reference must show a visible character"),
            (Self.body(#"\#(partner),\#(before),"reference":"\u200b\ufeff""#), "reference must show a visible"),
            (
                Self.body(#"\#(partner),\#(before),"reference":"\#(String(repeating: "r", count: 257))""#),
                "reference must be at most 256 characters"
            ),
            (Self.body(#"\#(partner),\#(before),"reference":"a\nb""#), "reference must not hold control characters"),
            (Self.body(#"\#(partner),\#(before),"amount":100"#), "The body names amount, which is not a field"),
            (Self.body(#"\#(partner),\#(partner),\#(before)"#), "The body names partner_id more than once"),
        ]
        for (body, says) in cases {
            let response = try Self.post(client, body)
            #expect(response.isError(400, "invalid_request"), "\(says): \(response.text)")
            let message = response.jsonObject?["message"] as? String ?? ""
            #expect(message.hasPrefix(says), "\(says): \(message)")
        }
        let good = Self.body("\(partner),\(before)")
        let unknown = try Self.post(client, Self.body(#""partner_id":"part_nope",\#(before)"#))
        #expect(unknown.isError(404, "unknown_partner"), "\(unknown.text)")
        let foreign = try Self.post(client, Self.body(#""partner_id":"part_zed",\#(before)"#))
        #expect(foreign.isError(404, "unknown_partner"), "another organization's partner: \(foreign.text)")
        let query = try client.request(
            "POST", "/v1/payouts?partner_id=part_sam", headers: Self.key + [("Content-Type", "application/json")],
            body: good)
        #expect(query.isError(400, "invalid_request"), "\(query.text)")
        #expect((query.jsonObject?["message"] as? String ?? "").hasPrefix("POST /v1/payouts takes no query"))
        let text = try Self.post(client, good, headers: Self.key + [("Content-Type", "text/plain")])
        #expect(text.isError(415, "unsupported_media_type"), "\(text.text)")
        let large = try Self.post(
            client, Self.body(#"\#(partner),\#(before),"reference":"\#(String(repeating: "r", count: 17_000))""#))
        #expect(large.isError(413, "payload_too_large"), "\(large.text)")
        let anonymous = try Self.post(client, good, headers: [("Content-Type", "application/json")])
        #expect(anonymous.isError(401, "unauthorized"))
        let wrongKey = try Self.post(
            client, good, headers: [("Authorization", "Bearer sk_wrong"), ("Content-Type", "application/json")])
        #expect(wrongKey.isError(401, "unauthorized"))

        #expect(try Self.data(client, "/v1/payouts").isEmpty)
        #expect(try Self.data(client, "/v1/commissions?paid=true").isEmpty)
        #expect(try Self.balance(client, "part_sam") == [150, 0, 0])
    }

    /// Wrong keys on the post count against the client as on every `/v1` route: after 10 in a minute, even the right
    /// key waits (`429`), and nothing is written.
    @Test func wrongKeysOnThePostAreLimited() throws {
        let server = try Self.populated(.sqlite)
        defer { server.shutdown() }
        let client = server.client()
        let body = Self.body(#""partner_id":"part_sam","created_before":"\#(Self.now())""#)
        for _ in 0..<10 {
            let wrong = try Self.post(
                client, body, headers: [("Authorization", "Bearer sk_wrong"), ("Content-Type", "application/json")])
            #expect(wrong.isError(401, "unauthorized"))
        }
        let limited = try Self.post(client, body)
        #expect(limited.isError(429, "rate_limited"), "\(limited.text)")
        #expect(limited.header("retry-after") != nil)
        #expect(try server.store.payouts(PayoutQuery(organizationID: "org_acme")).items.isEmpty)
    }

    @Test func theCommissionsFiltersAreHalfOpenAndRefusedWhenMalformed() throws {
        let server = try Self.populated(.sqlite)
        defer { server.shutdown() }
        let client = server.client()
        let all = try client.commissions()
        let times = all.compactMap { $0["created_at"] as? String }
        #expect(times.count == 5)
        let newest = try #require(times.first)
        let encoded = { (time: String) in time.replacingOccurrences(of: "+", with: "%2B") }
        // created_before is exclusive and created_since inclusive: the newest commission is in the second range only.
        let older = try Self.data(client, "/v1/commissions?created_before=\(encoded(newest))")
        #expect(older.count == all.count - all.filter { $0["created_at"] as? String == newest }.count)
        let since = try Self.data(client, "/v1/commissions?created_since=\(encoded(newest))")
        #expect(since.count + older.count == 5)
        #expect(
            try Self.data(
                client, "/v1/commissions?created_since=2020-01-01T00:00:00Z&created_before=2020-01-02T01:00:00%2B01:00"
            ).isEmpty)
        for query in [
            "created_since=2026-01-31", "created_before=yesterday", "created_before=2026-01-31T12:00:00",
            "created_since=2026-01-31T12:00:00+01:00", "paid=yes", "paid=1", "paid=", "created_since=",
            // Written backwards, or empty: no time in the range (an empty list would read as "none then").
            "created_since=2026-02-01T00:00:00Z&created_before=2026-01-01T00:00:00Z",
            "created_since=2026-02-01T00:00:00Z&created_before=2026-02-01T01:00:00%2B01:00",
        ] {
            let response = try client.request("GET", "/v1/commissions?\(query)", headers: Self.key)
            #expect(response.isError(400, "invalid_request"), "\(query): \(response.text)")
            let name = String(query.prefix { $0 != "=" })
            #expect((response.jsonObject?["message"] as? String ?? "").hasPrefix(name), "\(query): \(response.text)")
        }
    }

    @Test func partnersArePagedFilteredAndCarryTheirCodes() throws {
        let server = try Self.populated(.sqlite)
        defer { server.shutdown() }
        let client = server.client()
        let partners = try Self.data(client, "/v1/partners")
        #expect(
            partners.map { $0["id"] as? String } == [
                "part_a", "part_b", "part_bo", "part_idle", "part_lee", "part_sam",
            ])
        let sam = try #require(partners.last)
        #expect(
            Set(sam.keys) == [
                "id", "program_id", "name", "status", "codes", "codes_truncated", "unpaid_cents", "owed_back_cents",
                "paid_cents", "currency",
            ])
        #expect(sam["name"] as? String == "Sam" && sam["program_id"] as? String == "prg_acme")
        let codes = (sam["codes"] as? [[String: Any]] ?? []).map { $0["code"] as? String ?? "?" }
        #expect(codes.contains("SAM20") && sam["codes_truncated"] as? Bool == false)
        #expect(try Self.data(client, "/v1/partners?status=inactive").map { $0["id"] as? String } == ["part_idle"])
        let page = try Self.get(client, "/v1/partners?limit=2")
        #expect(page["has_more"] as? Bool == true && (page["data"] as? [Any])?.count == 2)
        #expect(
            try Self.data(client, "/v1/partners?starting_after=part_idle").map { $0["id"] as? String } == [
                "part_lee", "part_sam",
            ])
        for query in ["status=paused", "starting_after=part_zed", "starting_after=part_nope", "limit=0", "name=Sam"] {
            let response = try client.request("GET", "/v1/partners?\(query)", headers: Self.key)
            #expect(response.isError(400, "invalid_request"), "\(query): \(response.text)")
        }
        #expect(try client.request("GET", "/v1/partners").isError(401, "unauthorized"))
    }
}

/// `tolt-edge payouts` and the commissions command's new filters print what the API lists, and refuse what it
/// refuses, exit 2.
@Suite struct PayoutCLITests {
    @Test func theCLIPrintsWhatTheAPILists() throws {
        let server = try PayoutAPITests.populated(.sqlite)
        defer { server.shutdown() }
        let binary = TestFiles.binary
        try #require(access(binary, X_OK) == 0, "build tolt-edge first (swift build): \(binary)")
        let client = server.client()
        _ = try PayoutAPITests.pay(client, reference: "tr_1")
        _ = try PayoutAPITests.pay(client, "part_lee")
        let before = PayoutAPITests.now()
        let cases: [(arguments: [String], path: String)] = [
            (["payouts", "--org", "org_acme"], "/v1/payouts"),
            (["payouts", "--org", "pk_acme", "--partner-id", "part_lee"], "/v1/payouts?partner_id=part_lee"),
            (["payouts", "--org", "org_acme", "--limit", "1"], "/v1/payouts?limit=1"),
            (["commissions", "--org", "org_acme", "--paid", "true"], "/v1/commissions?paid=true"),
            (["commissions", "--org", "org_acme", "--paid", "false"], "/v1/commissions?paid=false"),
            (
                [
                    "commissions", "--org", "org_acme", "--created-since", "2020-01-01T00:00:00Z", "--created-before",
                    before,
                ],
                "/v1/commissions?created_since=2020-01-01T00:00:00Z&created_before=\(before)"
            ),
        ]
        for (arguments, path) in cases {
            let run = try ChildProcess.run(
                [arguments[0], "--data", server.directory] + arguments.dropFirst(), outputIn: server.directory)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let api = try PayoutAPITests.get(client, path)
            #expect(canonicalJSON(printed["data"] ?? "-") == canonicalJSON(api["data"] ?? "+"), "\(arguments)")
            #expect(printed["has_more"] as? Bool == api["has_more"] as? Bool, "\(arguments)")
            #expect((api["data"] as? [Any])?.isEmpty == false, "\(arguments)")
        }
        let refused: [(arguments: [String], says: String)] = [
            (["commissions", "--paid", "yes"], "--paid must be true or false"),
            (["commissions", "--created-since", "2026-01-31"], "--created-since must be an ISO 8601 time"),
            (["commissions", "--created-before", ""], "--created-before is empty"),
            (
                ["commissions", "--created-since", "2026-02-01T00:00:00Z", "--created-before", "2026-01-01T00:00:00Z"],
                "--created-since (2026-02-01T00:00:00.000Z) must be before --created-before"
            ),
            (["payouts", "--starting-after", "comm_1"], "--starting-after must be a payout id"),
            (["commissions", "--payout-id", "pay_nope"], "--payout-id pay_nope is no payout of this organization"),
            (["commissions", "--payout-id", "part_sam"], "--payout-id must be a payout id"),
            (["payouts", "--starting-after", "pay_nope"], "--starting-after pay_nope is no payout"),
            (["payouts", "--partner-id", "part_zed"], "--partner-id part_zed is not a partner"),
        ]
        for (arguments, says) in refused {
            let run = try ChildProcess.run(
                [arguments[0], "--data", server.directory, "--org", "org_acme"] + arguments.dropFirst(),
                outputIn: server.directory)
            #expect(run.status == 2 && run.stderr.contains(says), "\(arguments): \(run.stderr)")
        }
    }
}

/// The dashboard's commissions list says which payout paid each commission and which took it back; a partner's
/// page shows its balance.
@Suite struct PayoutDashboardTests {
    @Test(arguments: StoreKind.allCases) func theListShowsPayoutsAndThePartnerPageItsBalance(kind: StoreKind) throws {
        let server = try PayoutAPITests.populated(kind)
        defer { server.shutdown() }
        let client = server.client()
        let session = try client.dashboardSession()
        let unpaid = try client.dashboardPage("/dashboard/partners/part_sam", session: session).text
        #expect(unpaid.contains("<dt>Unpaid</dt><dd>$1.50</dd><dt>Owed back</dt><dd>$0.00</dd>"), "\(unpaid)")

        let first = try #require(try PayoutAPITests.pay(client)["id"] as? String)
        try client.deliver(RevenueCatPayload.refund(user: "u1", transaction: "p1"))
        let page = try client.dashboardPage("/dashboard/partners/part_sam", session: session).text
        #expect(
            page.contains(
                #"<dl id="partner-balance"><dt>Unpaid</dt><dd>$0.00</dd><dt>Owed back</dt><dd>$0.50</dd>"#
                    + "<dt>Paid</dt><dd>$1.50</dd></dl>"), "\(page)")

        let owing = try client.dashboardPage("/dashboard/commissions", session: session).text
        #expect(owing.contains(#"<td class="payout">by \#(first), owed back</td>"#), "p1 refunded: \(owing)")

        try client.deliver(RevenueCatPayload.purchase("RENEWAL", user: "u1", price: "10.00", transaction: "p6"))
        let second = try #require(try PayoutAPITests.pay(client)["id"] as? String)
        let list = try client.dashboardPage("/dashboard/commissions", session: session).text
        #expect(list.contains(#"<th scope="col">Paid</th>"#))
        #expect(list.contains(#"<td class="payout">by \#(first), taken back by \#(second)</td>"#), "p1: \(list)")
        #expect(list.contains(#"<td class="payout">by \#(second)</td>"#), "p6")
        #expect(list.contains(#"<td class="payout">not yet</td>"#), "p3, Lee's")
        #expect(list.contains(#"<td class="payout">—</td>"#), "p2, refunded before any payout")

        // Its refund reversed after the second payout took it back: owed again, and said so.
        try client.deliver(RevenueCatPayload.purchase("REFUND_REVERSED", user: "u1", price: "0", transaction: "p1"))
        let again = try client.dashboardPage("/dashboard/commissions", session: session).text
        #expect(
            again.contains(
                #"<td class="payout">not yet: owed again (paid by \#(first), taken back by \#(second))</td>"#),
            "p1: \(again)")
    }
}
