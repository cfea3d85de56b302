import Foundation
import TestSupport
import Testing

/// The `/v1` lists take the query parameters the README documents for each, and answer any other with
/// `400 invalid_request` naming it: a typo (`partnerid=part_x`) used to list every partner's rows with `200`.
@Suite struct APIQueryParameterTests {
    /// Each list with a query of its documented parameters, with valid values.
    static let lists: [(path: String, query: String)] = [
        ("/v1/clicks", "limit=5&partner_id=part_sam&since=2026-01-31"),
        ("/v1/customers", "limit=5&partner_id=part_sam&status=lead&customer_id=u1"),
        ("/v1/commissions", "limit=5&partner_id=part_sam&customer_id=u1&status=pending"),
        ("/v1/webhook_events", "limit=5&starting_after=evt_1"),
        ("/v1/stats/clicks", "timezone=UTC&from=2026-01-01&to=2026-01-31&partner_id=part_sam"),
    ]

    @Test func anUnknownParameterIs400NamingItAndTheDocumentedOnesAreTaken() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        // A cursor must name a row of its list (`APIListCursorTests`): the event `evt_1`.
        try client.deliver(RevenueCatPayload.make("TEST", id: "evt_1", ["app_user_id": "nobody"]))
        let key = [("Authorization", "Bearer sk_acme_secret")]
        for list in Self.lists {
            let query = list.query
            let taken = try client.request("GET", "\(list.path)?\(query)", headers: key)
            #expect(taken.status == 200, "\(list.path)?\(query): \(taken.status) \(taken.text)")
            let typo = try client.request("GET", "\(list.path)?\(query)&partnerid=part_x", headers: key)
            #expect(typo.isError(400, "invalid_request"), "\(list.path): \(typo.status) \(typo.text)")
            #expect(
                typo.message.hasPrefix("unknown query parameter partnerid: this endpoint takes "), "\(typo.message)")
        }
        // A cache-buster is no filter; a request without a valid key is refused as such first.
        #expect(try client.request("GET", "/v1/clicks?limit=5&_=1712345678901", headers: key).status == 200)
        let keyless = try client.request("GET", "/v1/clicks?partnerid=part_x")
        #expect(keyless.isError(401, "unauthorized"), "\(keyless.status) \(keyless.text)")
        let clicks = try client.request("GET", "/v1/clicks?Limit=5", headers: key)
        #expect(
            clicks.message
                == "unknown query parameter Limit: this endpoint takes limit, partner_id, since, starting_after")
    }

    /// A parameter given twice was read as its last value: `?partner_id=part_a&partner_id=part_b` listed part_b's rows
    /// alone, with `200`, to a client that asked for both. An empty one (`?partner_id=`, as a script writes
    /// `partner_id=${P}` with `P` unset) listed nothing with `200` on the lists, where the stats refuse it. Each
    /// documented parameter, repeated (with the same value or another) or empty, is now `400 invalid_request` naming
    /// it, on every list and on the stats.
    /// A parameter's name is echoed in the error, and was echoed whole: a 7,000-byte name made a 7,000-byte answer
    /// (up to the request head's limit). The error names its first 100 characters now, as the 404 names a path's.
    @Test func aLongParameterNameIsNamedByItsFirstHundredCharacters() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let key = [("Authorization", "Bearer sk_acme_secret")]
        let name = String(repeating: "A", count: 7_000)
        for query in ["\(name)=1", "\(name)=1&\(name)=2", "limit=5&\(name)="] {
            let response = try server.client().request("GET", "/v1/clicks?\(query)", headers: key)
            #expect(response.isError(400, "invalid_request"), "\(response.status)")
            #expect(response.message.contains(String(repeating: "A", count: 100) + "…"), "\(response.message)")
            #expect(response.body.count < 400, "\(response.body.count) bytes")
        }
        // One letter with 3,000 combining accents is one character of 6,001 bytes: cut by scalars, it is cut too.
        let accented = "a" + String(repeating: "%CC%81", count: 3_000)
        let response = try server.client().request("GET", "/v1/clicks?\(accented)=1", headers: key)
        #expect(response.isError(400, "invalid_request"), "\(response.status)")
        #expect(response.body.count < 600, "\(response.body.count) bytes")
    }

    @Test func aParameterGivenTwiceOrEmptyIs400NamingIt() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let key = [("Authorization", "Bearer sk_acme_secret")]
        for list in Self.lists {
            for pair in list.query.split(separator: "&") {
                let name = pair.prefix { $0 != "=" }
                for again in [String(pair), "\(name)=other"] {
                    let response = try client.request("GET", "\(list.path)?\(list.query)&\(again)", headers: key)
                    #expect(response.isError(400, "invalid_request"), "\(list.path) \(again): \(response.text)")
                    #expect(
                        response.message.hasPrefix("query parameter \(name) is given more than once"),
                        "\(list.path): \(response.message)")
                }
                for empty in ["\(name)=", "\(name)"] {
                    let response = try client.request("GET", "\(list.path)?\(empty)", headers: key)
                    #expect(response.isError(400, "invalid_request"), "\(list.path) \(empty): \(response.text)")
                    #expect(response.message.hasPrefix("\(name) is empty"), "\(list.path): \(response.message)")
                }
            }
        }
        // No partner id is longer than 64 bytes: one that is cannot be a filter that lists nothing by mistake.
        for path in ["/v1/clicks", "/v1/customers", "/v1/commissions", "/v1/stats/clicks"] {
            let long = try client.request(
                "GET", "\(path)?partner_id=part_" + String(repeating: "p", count: 60), headers: key)
            #expect(long.isError(400, "invalid_request") && long.message.hasPrefix("partner_id "), "\(path)")
        }
        // The cache-buster may repeat, or be empty: it is no filter.
        #expect(try client.request("GET", "/v1/clicks?_=1&_=2&_=", headers: key).status == 200)
    }

    /// A query the server cannot read whole is refused, not answered for the part it read: a filter after the 32nd
    /// parameter, or a name or value that is not UTF-8 once decoded (`partner%FF_id=`, which used to be dropped and
    /// list every partner's rows; `partner_id=part%FF`, which used to be called empty).
    @Test func aQueryThatCannotBeReadWholeIs400() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let key = [("Authorization", "Bearer sk_acme_secret")]
        let padding = (1...32).map { "_=\($0)" }.joined(separator: "&")
        for list in Self.lists {
            for query in ["\(padding)&partner_id=part_sam", "partner%FF_id=part_sam", "partner_id=part%FF"] {
                let response = try client.request("GET", "\(list.path)?\(query)", headers: key)
                #expect(response.isError(400, "invalid_request"), "\(list.path)?\(query): \(response.text)")
                #expect(response.message.hasPrefix("the query cannot be read whole: "), "\(response.message)")
            }
            // 32 parameters are read.
            let within = (1...31).map { "_=\($0)" }.joined(separator: "&")
            let first = list.query.prefix { $0 != "&" }
            let taken = try client.request("GET", "\(list.path)?\(within)&\(first)", headers: key)
            #expect(taken.status == 200, "\(list.path): \(taken.text)")
        }
    }
}
