import Testing

@testable import LinkCore

/// `ClaimRules.resolve` over a hand-built link table: which code a claim names and the claim window,
/// with no sockets and no store.
@Suite struct ClaimRulesTests {
    static let day: Int64 = 86_400_000
    static let now: Int64 = 1_795_981_161_000
    /// The tag a click id needs to pass `isAuthentic` in these tests.
    static let goodTag = [UInt8](repeating: 0xA5, count: ClickID.tagByteCount)

    let table = LinkTable(
        ConfigRecords(
            organizations: [
                OrganizationRecord(id: "org_a", name: "A", publicKey: "pk_a", secretKeyDigest: SecretDigest.of("sk_a")),
                OrganizationRecord(id: "org_b", name: "B", publicKey: "pk_b", secretKeyDigest: SecretDigest.of("sk_b")),
            ],
            programs: [
                ProgramRecord(id: "prg_window", organizationID: "org_a", name: "Windowed", claimWindowDays: 30),
                ProgramRecord(id: "prg_open", organizationID: "org_a", name: "Open"),
                ProgramRecord(id: "prg_b", organizationID: "org_b", name: "B"),
            ],
            partners: [
                PartnerRecord(id: "part_sam", programID: "prg_window", name: "Sam", status: "active"),
                PartnerRecord(id: "part_idle", programID: "prg_window", name: "Idle", status: "inactive"),
                PartnerRecord(id: "part_x", programID: "prg_open", name: "X", status: "active"),
                PartnerRecord(id: "part_y", programID: "prg_open", name: "Y", status: "active"),
                PartnerRecord(id: "part_lee", programID: "prg_open", name: "Lee", status: "active"),
                PartnerRecord(id: "part_zed", programID: "prg_b", name: "Zed", status: "active"),
            ],
            codes: [
                CodeRecord(reference: 1, partnerID: "part_sam", code: "Sam20", active: true),
                CodeRecord(reference: 2, partnerID: "part_sam", code: "OLD10", active: false),
                CodeRecord(reference: 3, partnerID: "part_idle", code: "IDLE5", active: true),
                CodeRecord(reference: 4, partnerID: "part_x", code: "DUP", active: true),
                CodeRecord(reference: 5, partnerID: "part_y", code: "dup", active: true),
                CodeRecord(reference: 6, partnerID: "part_lee", code: "LEE", active: true),
                CodeRecord(reference: 7, partnerID: "part_zed", code: "ZED", active: true),
            ]))

    /// A click id's text for `reference`, signed with `tag`.
    static func clickText(reference: UInt32, tag: [UInt8] = goodTag) -> String {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        raw.withUnsafeMutableBytes {
            ClickID.writeSignedBytes(
                timestampMilliseconds: UInt64(now), codeReference: reference, random: 42, into: $0.baseAddress!)
        }
        raw.replaceSubrange(ClickID.signedByteCount..., with: tag)
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        raw.withUnsafeBytes { raw in text.withUnsafeMutableBytes { ClickID.encode(raw, into: $0.baseAddress!) } }
        return String(decoding: text, as: UTF8.self)
    }

    func resolve(_ fields: String, publicKey: String = "pk_a") throws(ClaimFailure) -> (LinkTarget, Int64?) {
        let request = try ClaimRequest(body: Array(#"{"public_id":"\#(publicKey)","app_user_id":"u",\#(fields)}"#.utf8))
        let organization = table.organization(publicKey: publicKey)!
        let result = try ClaimRules.resolve(
            request, organization: organization, table: table, now: Self.now, isAuthentic: { $0.tag == Self.goodTag })
        return (result.target, result.firstSeenAt)
    }

    func refusal(_ fields: String, publicKey: String = "pk_a") -> ClaimFailure? {
        do {
            _ = try resolve(fields, publicKey: publicKey)
            return nil
        } catch { return error }
    }

    static func seen(_ millis: Int64) -> String { #""first_seen_at":"\#(Timestamp.format(millis))""# }

    @Test func codesMatchWithoutCase() throws {
        for code in ["Sam20", "SAM20", "sam20", "sAm20"] {
            let (target, _) = try resolve(#""code":"\#(code)",\#(Self.seen(Self.now))"#)
            #expect(target.partnerID == "part_sam")
            #expect(target.code == "Sam20")
            #expect(target.program.record.id == "prg_window")
        }
    }

    @Test func unknownInactiveAndForeignCodesAreUnknown() {
        #expect(refusal(#""code":"NOPE""#) == .unknownCode)
        #expect(refusal(#""code":"OLD10",\#(Self.seen(Self.now))"#) == .unknownCode)
        #expect(refusal(#""code":"IDLE5",\#(Self.seen(Self.now))"#) == .unknownCode)
        #expect(refusal(#""code":"ZED""#) == .unknownCode)
        #expect(refusal(#""code":"LEE""#, publicKey: "pk_b") == .unknownCode)
    }

    @Test func aCodeOfTwoPartnersConflicts() {
        #expect(refusal(#""code":"DUP""#) == .codeConflict)
        #expect(refusal(#""code":"Dup""#) == .codeConflict)
    }

    @Test func aSignedClickNamesItsCode() throws {
        let (target, seen) = try resolve(#""click_id":"\#(Self.clickText(reference: 6))""#)
        #expect(target.partnerID == "part_lee")
        #expect(target.code == "LEE")
        #expect(seen == nil)
    }

    @Test func theClickWinsOverTheCode() throws {
        let (target, _) = try resolve(
            #""code":"LEE","click_id":"\#(Self.clickText(reference: 1))",\#(Self.seen(Self.now))"#)
        #expect(target.partnerID == "part_sam")
        // An unknown click is refused even when the code would match.
        #expect(refusal(#""code":"LEE","click_id":"clk_nonsense""#) == .unknownClick)
    }

    @Test func badClicksAreUnknown() {
        #expect(refusal(#""click_id":"clk_nonsense""#) == .unknownClick)
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 6).dropLast())""#) == .unknownClick)
        let forged = Self.clickText(reference: 6, tag: [UInt8](repeating: 0, count: ClickID.tagByteCount))
        #expect(refusal(#""click_id":"\#(forged)""#) == .unknownClick)
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 999))""#) == .unknownClick)
        // A valid click of another organization.
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 7))""#) == .unknownClick)
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 6))""#, publicKey: "pk_b") == .unknownClick)
    }

    @Test func aClickOfAnInactiveCodeOrPartnerIsAnUnknownCode() {
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 2))",\#(Self.seen(Self.now))"#) == .unknownCode)
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 3))",\#(Self.seen(Self.now))"#) == .unknownCode)
    }

    @Test func theClaimWindow() throws {
        #expect(refusal(#""code":"SAM20""#) == .firstSeenRequired(days: 30))
        #expect(refusal(#""code":"SAM20""#)?.status == 400)
        #expect(try resolve(#""code":"SAM20",\#(Self.seen(Self.now - 30 * Self.day))"#).1 == Self.now - 30 * Self.day)
        #expect(refusal(#""code":"SAM20",\#(Self.seen(Self.now - 30 * Self.day - 1))"#) == .claimWindowClosed(days: 30))
        #expect(refusal(#""code":"SAM20",\#(Self.seen(Self.now - 400 * Self.day))"#)?.status == 409)
        // The future counts as now.
        #expect(try resolve(#""code":"SAM20",\#(Self.seen(Self.now + 365 * Self.day))"#).1 == Self.now)
        // A click claim follows the window of its code's program.
        #expect(refusal(#""click_id":"\#(Self.clickText(reference: 1))""#) == .firstSeenRequired(days: 30))
    }

    @Test func withoutAWindowFirstSeenIsOptional() throws {
        #expect(try resolve(#""code":"LEE""#).1 == nil)
        #expect(
            try resolve(#""code":"LEE",\#(Self.seen(Self.now - 2_000 * Self.day))"#).1 == Self.now - 2_000 * Self.day)
        #expect(try resolve(#""code":"LEE",\#(Self.seen(Self.now + Self.day))"#).1 == Self.now)
    }

    /// A first open before 2020 is a device clock not yet set (1970, 2001, 2010) or no time at all (year 0000), and
    /// one after the claim a clock that ran ahead, by a second or by centuries: the claim counts from its own time,
    /// with a window or without, rather than being refused or closed for good.
    @Test func aFirstOpenBefore2020OrAfterTheClaimCountsAsTheClaimsOwnTime() throws {
        for text in [
            "0000-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:03:12.500Z", "2001-01-01T00:00:00Z",
            "2010-01-01T12:00:00+02:00", "2019-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z",
            Timestamp.format(Self.now + 1), Timestamp.format(Self.now + 10 * 365 * Self.day),
        ] {
            let seen = #""first_seen_at":"\#(text)""#
            #expect(try resolve(#""code":"SAM20",\#(seen)"#).1 == Self.now, "\(text)")
            #expect(try resolve(#""code":"LEE",\#(seen)"#).1 == Self.now, "\(text)")
        }
        // From 2020-01-01 on, a time is the app's first open: the window judges it.
        let earliest = #""first_seen_at":"2020-01-01T00:00:00Z""#
        #expect(refusal(#""code":"SAM20",\#(earliest)"#) == .claimWindowClosed(days: 30))
        #expect(try resolve(#""code":"LEE",\#(earliest)"#).1 == ClaimRules.earliestFirstSeen)
        #expect(ClaimRules.earliestFirstSeen == Timestamp.parse("2020-01-01T00:00:00Z"))
    }
}
