import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer
@testable import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// README, `POST /client/claims`: `claimed`, and `already_claimed` with `"same_claim":true`, name the code in effect
/// (as stored) and its partner's name, so that an app can say "Code SAM20 applied" or "Invited by Sam" without a
/// second call; `already_claimed` for another code or click names neither, since anyone holding the public key (every
/// copy of the app) could otherwise learn which partner any user id belongs to.
@Suite struct ClaimInEffectTests {
    static let recent = WallClock.iso(offset: -.hour)

    @Test(arguments: StoreKind.allCases) func aCodeClaimNamesTheStoredCodeAndItsPartner(kind: StoreKind) throws {
        let server = try TestServer(store: kind)
        defer { server.shutdown() }
        let client = server.client()
        // Typed in lower case: the answer spells the code as the partner's code is stored.
        let claimed = try client.claim(ClaimBody.make(user: "u1", code: "sam20", firstSeenAt: Self.recent))
        #expect(claimed.isClaimed(user: "u1", code: "SAM20", partner: "Sam"), "\(claimed.text)")
        // The same code again, in any case or a spelling that matches it: the same claim, naming the same.
        for code in ["SAM20", "Sam20", "ＳＡＭ２０"] {
            let again = try client.claim(ClaimBody.make(user: "u1", code: code, firstSeenAt: Self.recent))
            #expect(again.isSameClaim(user: "u1", code: "SAM20", partner: "Sam"), "\(code): \(again.text)")
        }
        // Another partner's code: already claimed, and nothing said about whose user this is.
        let other = try client.claim(ClaimBody.make(publicID: "pk_acme", user: "u1", code: "LEE"))
        #expect(other.isAlreadyClaimed(user: "u1", sameClaim: false), "\(other.text)")
        #expect(!other.text.contains("SAM20") && !other.text.contains("Sam"), "\(other.text)")
        // Another partner's user, asked about with this partner's code: nothing said either.
        #expect(
            try client.claim(ClaimBody.make(user: "u2", code: "LEE")).isClaimed(user: "u2", code: "LEE", partner: "Lee")
        )
        let probe = try client.claim(ClaimBody.make(user: "u2", code: "SAM20", firstSeenAt: Self.recent))
        #expect(probe.isAlreadyClaimed(user: "u2", sameClaim: false), "\(probe.text)")
        #expect(!probe.text.contains("LEE") && !probe.text.contains("Lee"), "\(probe.text)")
    }

    @Test(arguments: StoreKind.allCases) func aClickClaimNamesItsClicksCode(kind: StoreKind) throws {
        let server = try TestServer(store: kind)
        defer { server.shutdown() }
        let client = server.client()
        let click = try ClaimClickTests.openLink(client, path: "/a/pk_acme/sam20")
        let claimed = try client.claim(ClaimBody.make(user: "tapper", clickID: click, firstSeenAt: Self.recent))
        #expect(claimed.isClaimed(user: "tapper", code: "SAM20", partner: "Sam"), "\(claimed.text)")
        let again = try client.claim(ClaimBody.make(user: "tapper", clickID: click, firstSeenAt: Self.recent))
        #expect(again.isSameClaim(user: "tapper", code: "SAM20", partner: "Sam"), "\(again.text)")
        // The code of that click, typed: the code in effect, so the same claim too.
        let byCode = try client.claim(ClaimBody.make(user: "tapper", code: "sam20", firstSeenAt: Self.recent))
        #expect(byCode.isSameClaim(user: "tapper", code: "SAM20", partner: "Sam"), "\(byCode.text)")
        // Another click of the code (another visitor's): not this claim's, so nothing named.
        let otherClick = try ClaimClickTests.openLink(client, userAgent: Agents.iPhone + " another")
        let other = try client.claim(ClaimBody.make(user: "tapper", clickID: otherClick, firstSeenAt: Self.recent))
        #expect(other.isAlreadyClaimed(user: "tapper", sameClaim: false), "\(other.text)")
    }

    /// The name comes from the configuration in force: a partner renamed since the claim is named as it is now, and
    /// one deactivated since is still named (its customers stay its customers).
    @Test func theNameIsTheConfigurationsNowAndAnInactivePartnerIsStillNamed() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        #expect(try client.claim(ClaimBody.recent(user: "kept")).isClaimed(user: "kept", code: "SAM20", partner: "Sam"))
        try server.importConfig(
            #"{"organizations":[{"id":"org_acme","programs":[{"id":"prg_acme","partners":["#
                + #"{"id":"part_sam","name":"Samantha Q","status":"inactive"}]}]}]}"#)
        // Loaded once the partner's link no longer redirects (claims are not polled: they are rate limited).
        let iPhone = [("User-Agent", Agents.iPhone)]
        #expect(try client.request("GET", "/a/pk_acme/SAM20", headers: iPhone).status == 302)
        #expect(
            try eventually(within: 5) { try client.request("GET", "/a/pk_acme/SAM20", headers: iPhone).status != 302 })
        let again = try client.claim(ClaimBody.recent(user: "kept"))
        #expect(again.isSameClaim(user: "kept", code: "SAM20", partner: "Samantha Q"), "\(again.text)")
    }

    /// A name stored before the display-text rules (or by another tool) is given as pages show it: without what the
    /// rules refuse, and `null` when nothing is left to show.
    @Test(arguments: StoreKind.allCases) func aNameWithNothingToShowIsNull(kind: StoreKind) throws {
        let server = try TestServer(store: kind)
        defer { server.shutdown() }
        var changes = ConfigChanges()
        changes.partners = [
            PartnerRecord(id: "part_blank", programID: "prg_bare", name: " \u{200B}", status: "active"),
            PartnerRecord(id: "part_bell", programID: "prg_bare", name: "Bell\u{07}e", status: "active"),
        ]
        changes.codes = [
            CodeRecord(reference: 0, partnerID: "part_blank", code: "BLANK", active: true),
            CodeRecord(reference: 0, partnerID: "part_bell", code: "BELLE", active: true),
        ]
        try server.store.applyConfig(changes, expectedRevision: try server.store.configRevision())
        let client = server.client()
        #expect(try eventually(within: 5) { try client.request("GET", "/a/pk_acme/BELLE").status != 404 })
        let claimed = try client.claim(ClaimBody.make(user: "b1", code: "blank"))
        #expect(claimed.isClaimed(user: "b1", code: "BLANK", partner: nil), "\(claimed.text)")
        let again = try client.claim(ClaimBody.make(user: "b1", code: "BLANK"))
        #expect(again.isSameClaim(user: "b1", code: "BLANK", partner: nil), "\(again.text)")
        let bell = try client.claim(ClaimBody.make(user: "b2", code: "BELLE"))
        #expect(bell.isClaimed(user: "b2", code: "BELLE", partner: "Belle"), "\(bell.text)")
    }

    /// The loser of two claims of one user with one code reads the winner back inside the store's claim (it found
    /// no customer before): its `already_claimed` is the same claim and names the same. The test holds SQLite's
    /// write lock while the claim is sent, writes the winner under it, then lets the claim's insert go on.
    @Test func theLoserOfARaceReadsTheWinnerBackAndNamesIt() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let lock = try SQLiteStore(directory: server.directory)
        try lock.withConnection { try $0.execute("BEGIN EXCLUSIVE") }
        let answer = RaceResults<(Int, [UInt8])>()
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        TestThread.start(name: "claim-loser") {
            let result = Result {
                let response = try HTTPClient(port: port).claim(ClaimBody.recent(user: "raced", code: "sam20"))
                return (response.status, response.body)
            }
            answer.byIndex.withLock { $0[0] = result }
            done.signal()
        }
        // The claim finds no customer (readers pass the lock) and waits for the write lock, up to 5 s.
        usleep(1_000_000)
        #expect(done.wait(timeout: .now()) == .timedOut, "the claim did not wait for the write lock")
        let now = WallClock.milliseconds()
        try lock.withConnection { db in
            try db.execute(
                """
                INSERT INTO customers (id, organization_id, customer_id, partner_id, program_id, code, click_id, status,
                claimed_at, first_seen_at) VALUES ('cust_winner', 'org_acme', 'raced', 'part_sam', 'prg_acme', 'SAM20',
                NULL, 'lead', \(now), NULL)
                """)
            try db.execute("COMMIT")
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        let (status, body) = try #require(answer.byIndex.withLock { $0[0] }).get()
        let response = TestSupport.HTTPResponse(status: status, headers: [], body: body, rawHead: [])
        #expect(response.isSameClaim(user: "raced", code: "SAM20", partner: "Sam"), "\(response.text)")
        let customers = try server.client().customers()
        #expect(customers.count == 1 && customers.first?["id"] as? String == "cust_winner", "\(customers)")
    }
}
