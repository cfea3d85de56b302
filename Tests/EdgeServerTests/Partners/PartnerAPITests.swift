import EdgeStore
import Foundation
import LinkCore
import Synchronization
import TestSupport
import Testing

/// `POST /v1/partners`, `GET /v1/partners/<partner_id>` and the partner actions under it, over a real server on each
/// store: a partner added by the API answers its link on this node at once and is claimed; a retry is answered with
/// the partner, never a second one; every refusal (the dashboard's rules, the importer's, the body's) names what it
/// refused and writes nothing (the configuration's revision stays); one organization's key reaches none of another's
/// partners.
@Suite struct PartnerAPITests {
    static let key = [("Authorization", "Bearer sk_acme_secret")]
    static let otherKey = [("Authorization", "Bearer sk_other_secret")]
    static let json = [("Content-Type", "application/json")]

    /// The standard configuration, its watcher checking the store only every 30 s: on SQLite a link that answers
    /// right after a post answers because the post put the new table in force, not because the watcher came by (on
    /// PostgreSQL the watcher also wakes on the store's notification, so there the test shows the answer, not which
    /// of the two put the table in force; `ConfigWatcherInstallTests` tests ``ConfigWatcher/install(_:)`` itself).
    static func server(_ kind: StoreKind) throws -> TestServer {
        try TestServer(store: kind) { $0.configPollInterval = 30 }
    }

    static func post(
        _ client: HTTPClient, _ path: String, _ body: String, headers: [(String, String)]? = nil
    ) throws -> HTTPResponse {
        try client.request("POST", path, headers: headers ?? (key + json), body: Array(body.utf8))
    }

    /// The `data` of a partner answer with `status`, or a thrown error saying what came instead.
    static func partner(_ response: HTTPResponse, _ status: Int) throws -> [String: Any] {
        guard response.status == status, let data = response.jsonObject?["data"] as? [String: Any] else {
            throw TestError("expected \(status) with a partner: \(response.status) \(response.text)")
        }
        return data
    }

    static func codes(_ partner: [String: Any]) -> [String] {
        (partner["codes"] as? [[String: Any]] ?? []).map {
            ($0["code"] as? String ?? "?") + (($0["active"] as? Bool) == true ? "" : " (inactive)")
        }
    }

    static func tap(_ client: HTTPClient, _ code: String, key: String = "pk_acme") throws -> HTTPResponse {
        try client.request("GET", "/a/\(key)/\(code)", headers: [("User-Agent", Agents.iPhone)])
    }

    @Test(arguments: StoreKind.allCases) func aPostedPartnerAnswersItsLinkAtOnceAndIsClaimed(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let before = try server.store.configRevision()
        let created = try Self.partner(
            Self.post(client, "/v1/partners", #"{"name":"Nia","program_id":"prg_acme","codes":["NIA10","nia-x"]}"#),
            201)
        let id = try #require(created["id"] as? String)
        #expect(id.hasPrefix("part_") && id.count == 29, "generated as the dashboard generates one: \(id)")
        #expect(
            Set(created.keys) == [
                "id", "program_id", "name", "status", "codes", "codes_truncated", "unpaid_cents", "owed_back_cents",
                "paid_cents", "currency",
            ])
        #expect(created["name"] as? String == "Nia" && created["program_id"] as? String == "prg_acme")
        #expect(created["status"] as? String == "active" && Self.codes(created) == ["NIA10", "nia-x"])
        #expect(created["unpaid_cents"] as? Int == 0 && created["paid_cents"] as? Int == 0)
        #expect(try server.store.configRevision() == before + 1)

        // At once, on this node: the table was put in force before the answer went out.
        let tap = try Self.tap(client, "NIA10")
        #expect(tap.status == 302, "\(tap.status) \(tap.text)")
        let click = try #require(LinkResponses.clickID(in: tap), "\(tap.header("location") ?? "-")")
        let firstSeen = Timestamp.format(WallClock.milliseconds() - 60_000)
        let claim = try client.claim(ClaimBody.make(user: "nia-user", clickID: click, firstSeenAt: firstSeen))
        #expect(claim.isClaimed(user: "nia-user", code: "NIA10", partner: "Nia"), "\(claim.text)")
        let byCode = try client.claim(ClaimBody.recent(user: "nia-user-2", code: "nia-x"))
        #expect(byCode.isClaimed(user: "nia-user-2", code: "nia-x", partner: "Nia"), "\(byCode.text)")
        #expect(
            Set(try client.customers("partner_id=\(id)").compactMap { $0["customer_id"] as? String }) == [
                "nia-user", "nia-user-2",
            ])

        // The one partner, and the list, in one shape.
        let read = try Self.partner(client.request("GET", "/v1/partners/\(id)", headers: Self.key), 200)
        #expect(canonicalJSON(read) == canonicalJSON(created))
        let listed = try PayoutAPITests.data(client, "/v1/partners?limit=100").first { $0["id"] as? String == id }
        #expect(canonicalJSON(listed ?? [:]) == canonicalJSON(created))
        let head = try client.request("HEAD", "/v1/partners/\(id)", headers: Self.key)
        #expect(head.status == 200 && head.body.isEmpty)

        let metrics = try client.request("GET", "/metrics").text
        #expect(metrics.contains(#"tolt_edge_http_requests_total{route="v1_partners",code="201"}"#), "\(metrics)")
        #expect(metrics.contains(#"tolt_edge_http_requests_total{route="v1_partner",code="200"}"#), "\(metrics)")
    }

    /// A retry of a post whose answer was lost: with its `id`, `200` and the partner, nothing written; without one,
    /// the name rule refuses it (`409 name_taken`, naming the partner). Never a second partner.
    /// 100 codes of 31 "é" each, escaped as JSON writers escape them by default (`\u00e9`, six bytes each): 19 KB of
    /// body for 6 KB of codes, over a claim's 16 KiB, were refused `413`; a partner post takes 64 KiB.
    @Test func codesEscapedAsJSONWritersEscapeThemFitTheBody() throws {
        let server = try Self.server(.sqlite)
        defer { server.shutdown() }
        let escaped = (0..<100).map { #""\#(String(repeating: "\\u00e9", count: 31))\#($0)""# }.joined(separator: ",")
        let body = #"{"name":"Esc","program_id":"prg_acme","codes":[\#(escaped)]}"#
        #expect(body.utf8.count > 16 * 1024)
        let many = try Self.post(server.client(), "/v1/partners", body)
        #expect(Self.codes(try Self.partner(many, 201)).count == 100)
    }

    @Test(arguments: StoreKind.allCases) func aRetryIsAnsweredWithThePartnerNeverASecondOne(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let body = #"{"id":"part_nia","name":"Nia","program_id":"prg_acme","codes":["NIA10"]}"#
        let created = try Self.partner(Self.post(client, "/v1/partners", body), 201)
        let revision = try server.store.configRevision()
        let again = try Self.partner(Self.post(client, "/v1/partners", body), 200)
        #expect(canonicalJSON(again) == canonicalJSON(created))
        // A code added since, or the code deactivated since, does not make the retry a conflict: it holds the code.
        _ = try Self.partner(Self.post(client, "/v1/partners/part_nia/codes", #"{"code":"NIA20"}"#), 201)
        _ = try Self.partner(Self.post(client, "/v1/partners/part_nia/codes/NIA10/deactivate", ""), 200)
        let later = try server.store.configRevision()
        let retried = try Self.partner(Self.post(client, "/v1/partners", body), 200)
        #expect(Self.codes(retried) == ["NIA10 (inactive)", "NIA20"])
        #expect(try server.store.configRevision() == later)
        #expect(later == revision + 2)
        // Nor does the partner deactivated since, whatever status the retry names (a script that always sends
        // "status":"active" was refused 409): it is answered as it is now.
        _ = try Self.partner(Self.post(client, "/v1/partners/part_nia/deactivate", ""), 200)
        let deactivated = try server.store.configRevision()
        let withStatus =
            #"{"id":"part_nia","name":" Nia ","program_id":"prg_acme","status":"active","codes":["NIA10"]}"#
        let asNow = try Self.partner(Self.post(client, "/v1/partners", withStatus), 200)
        #expect(asNow["status"] as? String == "inactive")
        #expect(try server.store.configRevision() == deactivated)
        _ = try Self.partner(Self.post(client, "/v1/partners/part_nia/reactivate", ""), 200)
        let reactivated = try server.store.configRevision()

        let refused: [(body: String, code: String, says: String)] = [
            (
                #"{"id":"part_nia","name":"Nina","program_id":"prg_acme"}"#, "partner_exists",
                "Partner part_nia exists, and differs from this post: its name is Nia."
            ),
            (#"{"id":"part_nia","name":"Nia","program_id":"prg_play"}"#, "partner_exists", "its program is prg_acme"),
            (#"{"id":"part_nia","name":"Nia","program_id":"prg_acme","codes":["NIA30"]}"#, "partner_exists", "NIA30"),
            // Another organization's partner: the id is taken, and nothing else of it is told.
            (
                #"{"id":"part_zed","name":"Zed","program_id":"prg_acme"}"#, "partner_exists",
                "The partner id part_zed is taken"
            ),
            (
                #"{"name":"Nia","program_id":"prg_acme"}"#, "name_taken",
                "Program prg_acme already has a partner named Nia (part_nia)"
            ),
            (#"{"id":"part_nia2","name":"Nia","program_id":"prg_acme"}"#, "name_taken", "Program prg_acme already"),
            // The name is trimmed as the dashboard's form trims it: " Nia " is Nia.
            (#"{"name":" Nia ","program_id":"prg_acme"}"#, "name_taken", "Program prg_acme already"),
        ]
        for (body, code, says) in refused {
            let response = try Self.post(client, "/v1/partners", body)
            #expect(response.isError(409, code), "\(body): \(response.text)")
            #expect(response.message.contains(says), "\(body): \(response.message)")
            #expect(!response.message.contains("org_other") && !response.message.contains("prg_other"))
        }
        #expect(try server.store.configRevision() == reactivated, "nothing written")
        let blank = try Self.post(client, "/v1/partners", #"{"name":"   ","program_id":"prg_acme"}"#)
        #expect(blank.isError(400, "invalid_request") && blank.message.contains("name must show a character"))
        let query = try client.request("GET", "/v1/partners/part_nia?x=1", headers: Self.key)
        #expect(query.isError(400, "invalid_request") && query.message.hasSuffix("this endpoint takes none"))
        let names = try PayoutAPITests.data(client, "/v1/partners?limit=100").compactMap { $0["name"] as? String }
        #expect(names.filter { $0 == "Nia" }.count == 1)
    }

    /// Eight posts of one partner at once, on eight connections (a client retrying while its first post is still
    /// being written): with its `id`, one `201` and seven `200`; without one, one `201` and seven `409 name_taken`.
    /// The rules run in the importer's loop, so a post planned on the configuration before another's write is planned
    /// again on it: one partner either way.
    @Test(arguments: StoreKind.allCases) func racingPostsMakeOnePartner(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let port = server.port
        for (body, others) in [
            (#"{"id":"part_nia","name":"Nia","program_id":"prg_acme","codes":["NIA10"]}"#, 200),
            (#"{"name":"Ona","program_id":"prg_acme","codes":["ONA10"]}"#, 409),
        ] {
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let status = (try? Self.post(HTTPClient(port: port), "/v1/partners", body))?.status ?? -1
                statuses.withLock { $0.append(status) }
            }
            #expect(
                statuses.withLock { $0.sorted() } == ([201] + Array(repeating: others, count: 7)).sorted(), "\(body)")
        }
        let names = try PayoutAPITests.data(server.client(), "/v1/partners?limit=100").compactMap {
            $0["name"] as? String
        }
        #expect(names.filter { $0 == "Nia" || $0 == "Ona" }.sorted() == ["Nia", "Ona"])
    }

    /// The dashboard's rules, answered `409`: a code another active partner of the organization holds, in any case
    /// or in a spelling that reads the same, on a new partner and on each action that makes a code active.
    @Test(arguments: StoreKind.allCases) func theDashboardsCodeRulesAreApplied(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let revision = try server.store.configRevision()
        for (body, says) in [
            (
                #"{"name":"Kim","program_id":"prg_acme","codes":["KIM","sam20"]}"#,
                "sam20 is an active code of part_sam (Sam)"
            ),
            (#"{"name":"Kim","program_id":"prg_play","codes":["\uff33\uff21\uff2d\uff12\uff10"]}"#, "part_sam"),
            (#"{"name":"Kim","program_id":"prg_bare","codes":["LEE"]}"#, "part_lee"),
        ] {
            let response = try Self.post(client, "/v1/partners", body)
            #expect(response.isError(409, "code_taken"), "\(body): \(response.text)")
            #expect(response.message.contains(says), "\(response.message)")
        }
        let lee = try Self.post(client, "/v1/partners/part_bo/codes", #"{"code":"lee"}"#)
        #expect(lee.isError(409, "code_taken"), "\(lee.text)")
        #expect(try server.store.configRevision() == revision, "nothing written")

        // An inactive code, a code of an inactive partner, another organization's code: no active holder here.
        for body in [
            #"{"name":"Kim","program_id":"prg_acme","codes":["OLD10"]}"#,
            #"{"name":"Ivy","program_id":"prg_acme","codes":["IDLE5"]}"#,
            #"{"name":"Zoe","program_id":"prg_acme","codes":["ZED"]}"#,
        ] {
            _ = try Self.partner(Self.post(client, "/v1/partners", body), 201)
        }
        // Now Ivy holds IDLE5: Idle cannot come back with it, as the dashboard refuses.
        let idle = try Self.post(client, "/v1/partners/part_idle/reactivate", "")
        #expect(idle.isError(409, "code_taken") && idle.message.contains("IDLE5"), "\(idle.text)")
        // Kim holds OLD10: Sam's inactive OLD10 cannot be reactivated.
        let old = try Self.post(client, "/v1/partners/part_sam/codes/OLD10/reactivate", "")
        #expect(old.isError(409, "code_taken"), "\(old.text)")
        let after = try server.store.configRevision()
        #expect(after == revision + 3)

        // A code the partner holds: as written and active, 200; another spelling or inactive, 409 code_held.
        let same = try Self.partner(Self.post(client, "/v1/partners/part_sam/codes", #"{"code":"SAM20"}"#), 200)
        #expect(Self.codes(same) == ["OLD10 (inactive)", "SAM20"])
        for code in ["sam20", "OLD10", "\\uff33\\uff21\\uff2d\\uff12\\uff10"] {
            let response = try Self.post(client, "/v1/partners/part_sam/codes", #"{"code":"\#(code)"}"#)
            #expect(response.isError(409, "code_held"), "\(code): \(response.text)")
        }
        #expect(try server.store.configRevision() == after, "nothing written")
        // Two codes of one post that read as one: refused before anything is planned.
        let twins = try Self.post(
            client, "/v1/partners", #"{"name":"Tia","codes":["TIA","tia"],"program_id":"prg_acme"}"#)
        #expect(twins.isError(400, "invalid_request") && twins.message.hasPrefix("codes[1]"), "\(twins.text)")
    }

    /// A code holding a character drawn as nothing (a variation selector, the combining grapheme joiner, a zero-width
    /// joiner between Latin letters, a Hangul filler, U+2800) is `400`, naming the field and the code point, and
    /// writes nothing: each was `201`, and its link answered as a separate code looking like `KIM20` or `ÉÉ`. One that
    /// looks like another partner's code is that partner's (`409`); a Persian code spelt with its non-joiner is made.
    @Test(arguments: StoreKind.allCases) func codesHoldingInvisibleCharactersAreRefused(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let revision = try server.store.configRevision()
        for (code, point) in [
            (#"KIM20\ufe0f"#, "U+FE0F"), (#"KIM2\ufe0f0"#, "U+FE0F"), (#"KIM\u034f20"#, "U+034F"),
            (#"\u00c9\u200d\u00c9"#, "U+200D"), (#"KIM\u316420"#, "U+3164"), (#"KIM\u280020"#, "U+2800"),
        ] {
            let body = #"{"name":"Kim","program_id":"prg_acme","codes":["\#(code)"]}"#
            let response = try Self.post(client, "/v1/partners", body)
            #expect(response.isError(400, "invalid_request"), "\(code): \(response.text)")
            #expect(
                response.message.hasPrefix("codes[0]: must not contain invisible characters: it holds \(point),"),
                "\(response.message)")
            let added = try Self.post(client, "/v1/partners/part_lee/codes", #"{"code":"\#(code)"}"#)
            #expect(added.isError(400, "invalid_request"), "\(code): \(added.text)")
            #expect(added.message.hasPrefix("code: must not contain invisible characters"), "\(added.message)")
        }
        let lookalike = try Self.post(
            client, "/v1/partners", #"{"name":"Kim","program_id":"prg_play","codes":["SAM20\ufe0f"]}"#)
        #expect(lookalike.isError(409, "code_taken") && lookalike.message.contains("part_sam"), "\(lookalike.text)")
        #expect(try server.store.configRevision() == revision, "nothing written")
        #expect(try Self.tap(client, "KIM20%EF%B8%8F").status == 404)

        let persian = "\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645}"
        let made = try Self.partner(
            Self.post(client, "/v1/partners", #"{"name":"Kim","program_id":"prg_acme","codes":["\#(persian)"]}"#), 201)
        #expect(Self.codes(made) == [persian])
        let path = try #require(persian.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(try Self.tap(client, path).status == 302, "its link, to the app")
    }

    /// Each action answers the partner, and what it changes answers on the links at once.
    @Test(arguments: StoreKind.allCases) func theActionsChangeThePartnerAndItsLinksAtOnce(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let added = try Self.partner(Self.post(client, "/v1/partners/part_lee/codes", #"{"code":"CAF\u00c9"}"#), 201)
        #expect(Self.codes(added) == ["CAFÉ", "LEE"])
        #expect(try Self.tap(client, "CAF%C3%89").status == 200, "Lee's new link (its page: no template), at once")

        let off = try Self.partner(Self.post(client, "/v1/partners/part_lee/codes/CAF%C3%89/deactivate", ""), 200)
        #expect(Self.codes(off) == ["CAFÉ (inactive)", "LEE"])
        #expect(try Self.tap(client, "CAF%C3%89").status == 404)
        let on = try Self.partner(
            Self.post(client, "/v1/partners/part_lee/codes/CAF%C3%89/reactivate", "{}"), 200)
        #expect(Self.codes(on) == ["CAFÉ", "LEE"])
        // By its bytes, as stored: E and U+0301 is another code.
        let composed = try Self.post(client, "/v1/partners/part_lee/codes/CAFE%CC%81/deactivate", "")
        #expect(composed.isError(404, "unknown_code"), "\(composed.text)")

        let inactive = try Self.partner(Self.post(client, "/v1/partners/part_lee/deactivate", ""), 200)
        #expect(inactive["status"] as? String == "inactive")
        #expect(try Self.tap(client, "LEE").status == 404)
        let unchanged = try server.store.configRevision()
        #expect(
            try Self.partner(Self.post(client, "/v1/partners/part_lee/deactivate", ""), 200)["status"] as? String
                == "inactive")
        #expect(try server.store.configRevision() == unchanged, "already inactive: nothing written")
        let active = try Self.partner(Self.post(client, "/v1/partners/part_lee/reactivate", ""), 200)
        #expect(active["status"] as? String == "active")
        #expect(try Self.tap(client, "LEE").status == 200)
    }

    /// Every refusal of the body, the path, the method and the key, with its status and code, and nothing written.
    @Test(arguments: StoreKind.allCases) func badRequestsAreRefusedAndWriteNothing(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let revision = try server.store.configRevision()
        let program = #""program_id":"prg_acme""#
        let cases: [(body: String, says: String)] = [
            ("not json", "The body is not valid JSON"),
            ("[]", "The body must be a JSON object"),
            ("{\(program)}", "name is required"),
            (#"{"name":null,\#(program)}"#, "name is required"),
            (#"{"name":7,\#(program)}"#, "name must be a string, not a number"),
            (#"{"name":"",\#(program)}"#, "name must not be empty"),
            (#"{"name":"A\nB",\#(program)}"#, "name must not hold control characters"),
            (#"{"name":"\u202eKim",\#(program)}"#, "name: must not contain invisible formatting characters"),
            (#"{"name":"\#(String(repeating: "n", count: 201))",\#(program)}"#, "name: "),
            (#"{"name":"Kim"}"#, "program_id is required: this organization has 3 programs"),
            (#"{"name":"Kim","program_id":"\#(String(repeating: "p", count: 65))"}"#, "program_id must be"),
            (#"{"name":"Kim",\#(program),"id":"kim"}"#, "id: must be part_ followed by"),
            (#"{"name":"Kim",\#(program),"id":"part_k m"}"#, "id: must be part_ followed by"),
            (#"{"name":"Kim",\#(program),"status":"paused"}"#, #"status must be "active" or "inactive""#),
            (#"{"name":"Kim",\#(program),"codes":"KIM"}"#, "codes must be an array of strings, not a string"),
            (#"{"name":"Kim",\#(program),"codes":[7]}"#, "codes[0] must be a string, not a number"),
            (#"{"name":"Kim",\#(program),"codes":["OK","a/b"]}"#, "codes[1]: "),
            (#"{"name":"Kim",\#(program),"codes":["OK",".."]}"#, "codes[1]: "),
            (#"{"name":"Kim",\#(program),"codes":["K\u0000M"]}"#, "codes[0] must not hold control characters"),
            (#"{"name":"Kim",\#(program),"codes":["KIM","kim"]}"#, "codes[1]"),
            (
                #"{"name":"Kim",\#(program),"codes":[\#((0...100).map { "\"C\($0)\"" }.joined(separator: ","))]}"#,
                "codes holds 101 codes: at most 100"
            ),
            (#"{"name":"Kim",\#(program),"email":"k@example.com"}"#, "The body names email, which is not a field"),
            (#"{"name":"Kim",\#(program),"name":"Kim"}"#, "The body names name more than once"),
        ]
        for (body, says) in cases {
            let response = try Self.post(client, "/v1/partners", body)
            #expect(response.isError(400, "invalid_request"), "\(body): \(response.text)")
            #expect(response.message.hasPrefix(says), "\(says): \(response.message)")
        }
        let unknownProgram = try Self.post(client, "/v1/partners", #"{"name":"Kim","program_id":"prg_other"}"#)
        #expect(unknownProgram.isError(404, "unknown_program"), "\(unknownProgram.text)")
        let good = #"{"name":"Kim",\#(program)}"#
        let query = try Self.post(client, "/v1/partners?name=Kim", good)
        #expect(query.isError(400, "invalid_request") && query.message.hasPrefix("POST /v1/partners takes no query"))
        #expect(try Self.post(client, "/v1/partners", good, headers: Self.key).isError(415, "unsupported_media_type"))
        let text = try Self.post(client, "/v1/partners", good, headers: Self.key + [("Content-Type", "text/plain")])
        #expect(text.isError(415, "unsupported_media_type"))
        let large = try Self.post(client, "/v1/partners", #"{"name":"\#(String(repeating: "n", count: 66_000))"}"#)
        #expect(large.isError(413, "payload_too_large"), "\(large.text)")
        #expect(try Self.post(client, "/v1/partners", good, headers: Self.json).isError(401, "unauthorized"))
        let wrong = [("Authorization", "Bearer sk_wrong")] + Self.json
        #expect(try Self.post(client, "/v1/partners", good, headers: wrong).isError(401, "unauthorized"))

        // The actions: their bodies, paths and methods.
        let actions: [(method: String, path: String, body: String, status: Int, code: String)] = [
            ("POST", "/v1/partners/part_sam/codes", "", 415, "unsupported_media_type"),
            ("POST", "/v1/partners/part_sam/codes", "{}", 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/codes", #"{"code":"NEW","active":true}"#, 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/codes", #"{"code":"a b"}"#, 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/deactivate", #"{"status":"inactive"}"#, 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/deactivate?now=1", "", 400, "invalid_request"),
            ("POST", "/v1/partners/part_nope/deactivate", "", 404, "unknown_partner"),
            ("POST", "/v1/partners/part_sam/codes/NOPE/deactivate", "", 404, "unknown_code"),
            ("POST", "/v1/partners/part_sam/codes/sam20/deactivate", "", 404, "unknown_code"),
            ("POST", "/v1/partners/part_sam/codes/SAM%2/deactivate", "", 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/codes/%FF/deactivate", "", 400, "invalid_request"),
            ("POST", "/v1/partners/part_sam/pause", "", 404, "not_found"),
            ("POST", "/v1/partners/part_sam/codes/SAM20", "", 404, "not_found"),
            ("GET", "/v1/partners/part_sam/", "", 404, "not_found"),
            ("GET", "/v1/partners/part_sam?expand=codes", "", 400, "invalid_request"),
            ("GET", "/v1/partners/part_nope", "", 404, "unknown_partner"),
            ("GET", "/v1/partners/part_sam/codes", "", 405, "method_not_allowed"),
            ("DELETE", "/v1/partners/part_sam", "", 405, "method_not_allowed"),
            ("PUT", "/v1/partners", "", 405, "method_not_allowed"),
        ]
        for action in actions {
            let headers = action.body.isEmpty ? Self.key : Self.key + Self.json
            let response = try client.request(
                action.method, action.path, headers: headers, body: Array(action.body.utf8))
            #expect(response.isError(action.status, action.code), "\(action): \(response.text)")
        }
        #expect(try client.request("GET", "/v1/partners/part_sam/codes").header("allow") == "POST")
        #expect(try client.request("DELETE", "/v1/partners/part_sam").header("allow") == "GET, HEAD")
        #expect(try client.request("PUT", "/v1/partners").header("allow") == "GET, HEAD, POST")
        #expect(try client.request("GET", "/v1/partners/part_sam").isError(401, "unauthorized"))
        #expect(try server.store.configRevision() == revision, "nothing written")
        #expect(try client.request("GET", "/v1/partners/part_sam", headers: Self.key).status == 200)
    }

    /// One organization's key reaches only its own partners: another's are `404 unknown_partner` to read and to
    /// change, and nothing of them changes.
    @Test(arguments: StoreKind.allCases) func anotherOrganizationsPartnersAreNotFound(kind: StoreKind) throws {
        let server = try Self.server(kind)
        defer { server.shutdown() }
        let client = server.client()
        let revision = try server.store.configRevision()
        let requests: [(method: String, path: String, body: String)] = [
            ("GET", "/v1/partners/part_zed", ""),
            ("POST", "/v1/partners/part_zed/codes", #"{"code":"ACME1"}"#),
            ("POST", "/v1/partners/part_zed/deactivate", ""),
            ("POST", "/v1/partners/part_zed/reactivate", ""),
            ("POST", "/v1/partners/part_zed/codes/ZED/deactivate", ""),
            ("POST", "/v1/partners/part_zed/codes/NOPE/reactivate", ""),
        ]
        for request in requests {
            let headers = request.body.isEmpty ? Self.key : Self.key + Self.json
            let response = try client.request(
                request.method, request.path, headers: headers, body: Array(request.body.utf8))
            #expect(response.isError(404, "unknown_partner"), "\(request): \(response.text)")
        }
        let sam = try client.request("POST", "/v1/partners/part_sam/deactivate", headers: Self.otherKey)
        #expect(sam.isError(404, "unknown_partner"), "\(sam.text)")
        #expect(try server.store.configRevision() == revision, "nothing written")
        #expect(try Self.tap(client, "ZED", key: "pk_other").status != 404)

        // The other organization has one program: its post may leave program_id out. Acme cannot see the partner.
        let created = try Self.partner(
            Self.post(client, "/v1/partners", #"{"name":"Yan","codes":["SAM20"]}"#, headers: Self.otherKey + Self.json),
            201)
        let id = try #require(created["id"] as? String)
        #expect(created["program_id"] as? String == "prg_other")
        #expect(try Self.tap(client, "SAM20", key: "pk_other").status != 404, "a code is per organization")
        let hidden = try client.request("GET", "/v1/partners/\(id)", headers: Self.key)
        #expect(hidden.isError(404, "unknown_partner"), "\(hidden.text)")
        let listed = try PayoutAPITests.data(client, "/v1/partners?limit=100").compactMap { $0["id"] as? String }
        #expect(!listed.contains(id))
    }
}
