import Testing

@testable import LinkCore

/// The body rules of `POST /client/claims`: every refusal is a 400 `invalid_request` naming the field.
@Suite struct ClaimRequestTests {
    private func parse(_ json: String) throws(ClaimFailure) -> ClaimRequest {
        try ClaimRequest(body: Array(json.utf8))
    }

    /// The failure for `json`, which must be refused.
    private func failure(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> ClaimFailure? {
        do {
            let request = try parse(json)
            Issue.record("accepted \(json) as \(request)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.status == 400, sourceLocation: sourceLocation)
            #expect(error.code == "invalid_request", sourceLocation: sourceLocation)
            return error
        }
    }

    @Test func readsEveryField() throws {
        let request = try parse(
            #"{"public_id":"pk_acme","app_user_id":"user-1","code":"SAM20","click_id":"clk_x","#
                + #""first_seen_at":"2026-01-31T12:00:00.250+05:30","extra":{"ignored":[1,2]}}"#)
        #expect(request.publicID == "pk_acme")
        #expect(request.appUserID == "user-1")
        #expect(request.code == "SAM20")
        #expect(request.clickID == "clk_x")
        #expect(request.firstSeenAt == 1_769_841_000_250)
    }

    @Test func codeOrClickAloneIsEnough() throws {
        let byCode = try parse(#"{"public_id":"pk","app_user_id":"u","code":"C"}"#)
        #expect(byCode.code == "C" && byCode.clickID == nil && byCode.firstSeenAt == nil)
        let byClick = try parse(#"{"public_id":"pk","app_user_id":"u","click_id":"clk_1","first_seen_at":null}"#)
        #expect(byClick.code == nil && byClick.clickID == "clk_1" && byClick.firstSeenAt == nil)
        let emptyCode = try parse(#"{"public_id":"pk","app_user_id":"u","code":"","click_id":"clk_1"}"#)
        #expect(emptyCode.code == nil && emptyCode.clickID == "clk_1")
    }

    @Test func appUserIDIsOneTo256Characters() throws {
        let longest = String(repeating: "a", count: 256)
        #expect(try parse(#"{"public_id":"pk","app_user_id":"\#(longest)","code":"C"}"#).appUserID == longest)
        // Characters, not bytes: 256 two-byte characters are allowed.
        let accented = String(repeating: "é", count: 256)
        #expect(try parse(#"{"public_id":"pk","app_user_id":"\#(accented)","code":"C"}"#).appUserID == accented)
        let tooLong = failure(#"{"public_id":"pk","app_user_id":"\#(longest)a","code":"C"}"#)
        #expect(tooLong?.message.contains("app_user_id") == true)
        let empty = failure(#"{"public_id":"pk","app_user_id":"","code":"C"}"#)
        #expect(empty?.message.contains("app_user_id") == true)
    }

    @Test(arguments: [
        (#"{"app_user_id":"u","code":"C"}"#, "public_id"),
        (#"{"public_id":null,"app_user_id":"u","code":"C"}"#, "public_id"),
        (#"{"public_id":"","app_user_id":"u","code":"C"}"#, "public_id"),
        (#"{"public_id":5,"app_user_id":"u","code":"C"}"#, "public_id"),
        (#"{"public_id":"pk","code":"C"}"#, "app_user_id"),
        (#"{"public_id":"pk","app_user_id":null,"code":"C"}"#, "app_user_id"),
        (#"{"public_id":"pk","app_user_id":42,"code":"C"}"#, "app_user_id"),
        (#"{"public_id":"pk","app_user_id":["u"],"code":"C"}"#, "app_user_id"),
        (#"{"public_id":"pk","app_user_id":"u"}"#, "code or click_id"),
        (#"{"public_id":"pk","app_user_id":"u","code":"","click_id":""}"#, "code or click_id"),
        (#"{"public_id":"pk","app_user_id":"u","code":null,"click_id":null}"#, "code or click_id"),
        (#"{"public_id":"pk","app_user_id":"u","code":true}"#, "code"),
        (#"{"public_id":"pk","app_user_id":"u","code":20}"#, "code"),
        (#"{"public_id":"pk","app_user_id":"u","click_id":{}}"#, "click_id"),
        (#"{"public_id":"pk","app_user_id":"u","code":"C","first_seen_at":"yesterday"}"#, "first_seen_at"),
        (#"{"public_id":"pk","app_user_id":"u","code":"C","first_seen_at":"2026-02-30T00:00:00Z"}"#, "first_seen_at"),
        (#"{"public_id":"pk","app_user_id":"u","code":"C","first_seen_at":1769860800}"#, "first_seen_at"),
    ])
    func namesTheFieldThatFailed(json: String, field: String) {
        let refused = failure(json)
        #expect(refused?.message.contains(field) == true, "\(refused?.message ?? "-")")
    }

    /// A bad `first_seen_at` is answered with the forms it takes, an offset included: a date alone and a time
    /// without an offset, what clients most often send, were refused with only `2026-01-31T12:00:00Z` as an example.
    @Test(arguments: ["2026-01-31", "2026-01-31T12:00:00", "yesterday", ""])
    func aBadFirstSeenAtNamesTheFormsWithTheirOffset(time: String) {
        let message = failure(#"{"public_id":"pk","app_user_id":"u","code":"C","first_seen_at":"\#(time)"}"#)?.message
        #expect(message?.contains("with its offset") == true, "\(message ?? "-")")
        #expect(message?.contains("2026-01-31T13:00:00+01:00") == true, "\(message ?? "-")")
    }

    @Test func aCodeLongerThan256BytesIsRefused() {
        let code = String(repeating: "C", count: 257)
        #expect(failure(#"{"public_id":"pk","app_user_id":"u","code":"\#(code)"}"#)?.message.contains("code") == true)
    }

    @Test(arguments: [
        "", "   ", "{", #"{"public_id":"pk","app_user_id":"u"#, #"{"public_id":"pk",}"#, "nul", "{} {}",
        #"{'public_id':'pk'}"#,
    ])
    func refusesInvalidJSON(body: String) {
        #expect(failure(body)?.message.contains("JSON") == true)
    }

    @Test(arguments: [#"[]"#, #""pk""#, "42", "null", "true", #"[{"public_id":"pk","app_user_id":"u","code":"C"}]"#])
    func refusesAnythingButAnObject(body: String) {
        #expect(failure(body)?.message.contains("object") == true)
    }

    @Test func refusesHostileBytes() {
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        #expect(failure(deep)?.message.contains("JSON") == true)
        let nested = #"{"public_id":"pk","app_user_id":"u","code":"C","x":"# + deep + "}"
        #expect(failure(nested)?.message.contains("JSON") == true)
        let invalidUTF8: [UInt8] =
            Array(#"{"public_id":"pk","app_user_id":"u"#.utf8) + [0xFF, 0xFE]
            + Array(#"","code":"C"}"#.utf8)
        #expect(throws: ClaimFailure.self) { try ClaimRequest(body: invalidUTF8) }
        let rawNUL: [UInt8] =
            Array(#"{"public_id":"pk","app_user_id":"u"#.utf8) + [0]
            + Array(#"","code":"C"}"#.utf8)
        #expect(throws: ClaimFailure.self) { try ClaimRequest(body: rawNUL) }
        #expect(throws: ClaimFailure.self) { try ClaimRequest(body: [0, 0, 0]) }
    }
}
