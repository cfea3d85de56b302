import Foundation
import Synchronization
import TestSupport
import Testing

/// Failed authentications are limited per client address: 10 in any minute (wrong keys on `/v1` and failed dashboard
/// sign-ins together), then `429 rate_limited` with `Retry-After`, before the key is read, the right key too. Before,
/// 500 wrong keys from one address all got `401`, and an imported secret key may be as short as 6 characters.
@Suite struct AuthenticationLimitTests {
    static let right = [("Authorization", "Bearer sk_acme_secret")]
    static let wrong = [("Authorization", "Bearer sk_acme_secreT")]

    static func isLimited(_ response: TestSupport.HTTPResponse) -> Bool {
        guard response.isError(429, "rate_limited"), let wait = response.header("retry-after").flatMap(Int.init)
        else { return false }
        return (1...60).contains(wait) && response.message.contains("failed authentications")
    }

    /// Sends `count` requests with `headers` to `/v1/clicks`, each of which must get `status`.
    static func send(
        _ count: Int, _ headers: [(String, String)], _ client: HTTPClient, expecting status: Int,
        path: String = "/v1/clicks"
    ) throws {
        for index in 0..<count {
            let response = try client.request("GET", path, headers: headers)
            #expect(response.status == status, "request \(index + 1) \(headers): \(response.status) \(response.text)")
        }
    }

    @Test func theEleventhWrongKeyInAMinuteIs429AndSoIsTheRightKeyAfterIt() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let before = try MetricsTests.scrape(client)
        var statuses: [Int: Int] = [:]
        for _ in 0..<500 {
            let response = try client.request("GET", "/v1/clicks", headers: Self.wrong)
            statuses[response.status, default: 0] += 1
            if response.status == 429 { #expect(Self.isLimited(response), "\(response.text)") }
        }
        #expect(statuses == [401: 10, 429: 490], "\(statuses)")
        // Before the key is read: the right one waits too, on every list and a new connection, in the error shape.
        let limited = try server.client().request("GET", "/v1/customers", headers: Self.right)
        #expect(Self.isLimited(limited), "\(limited.status) \(limited.text)")
        #expect(limited.header("content-type")?.hasPrefix("application/json") == true)
        #expect(try limited.json["success"]?.boolValue == false)
        for path in ["/v1/clicks", "/v1/commissions", "/v1/webhook_events", "/v1/stats/clicks"] {
            #expect(Self.isLimited(try client.request("GET", path, headers: Self.right)), "\(path)")
        }
        // Other paths are not limited.
        #expect(try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.desktop)]).status == 200)

        let after = try MetricsTests.scrape(client)
        let name = "tolt_edge_authentication_failures_total"
        #expect(after.value(name, ["outcome": "wrong_key"]) - before.value(name, ["outcome": "wrong_key"]) == 10)
        #expect(
            after.value(name, ["outcome": "rate_limited"]) - before.value(name, ["outcome": "rate_limited"]) == 495)
    }

    /// Requests that race on several workers are checked before any is counted: a burst of wrong keys on 8
    /// connections fails at most once per request in flight more than 10 times.
    @Test func aBurstOnManyConnectionsFailsAtMostOncePerConnectionPastTheLimit() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let port = server.port
        let answers = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let client = HTTPClient(port: port)
            let statuses = (0..<50).map { _ in
                (try? client.request("GET", "/v1/clicks", headers: Self.wrong).status) ?? 0
            }
            answers.withLock { $0 += statuses }
        }
        let statuses = answers.withLock { $0 }
        let failed = statuses.filter { $0 == 401 }.count
        #expect((10...17).contains(failed), "\(failed) wrong keys answered 401")
        #expect(statuses.filter { $0 == 429 }.count == 400 - failed)
    }

    /// A right key is not counted and frees nothing: after 9 failures, any number of successes leave room for one.
    @Test func rightKeysNeitherCountNorReset() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        try Self.send(40, Self.right, client, expecting: 200)
        try Self.send(9, Self.wrong, client, expecting: 401)
        try Self.send(40, Self.right, client, expecting: 200)
        try Self.send(1, Self.wrong, client, expecting: 401)
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: Self.right)))
    }

    /// A request without `Authorization` tries no key and is not counted (a probe or a forgetful script does not
    /// lock its address out); one that is not `Bearer`, or two lines of it, is.
    @Test func aMissingAuthorizationIsNotCountedAMalformedOneIs() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        try Self.send(30, [], client, expecting: 401)
        try Self.send(1, Self.right, client, expecting: 200)
        try Self.send(4, [("Authorization", "Basic c2tfYWNtZV9zZWNyZXQ6")], client, expecting: 401)
        try Self.send(3, [("Authorization", "sk_acme_secret")], client, expecting: 401)
        try Self.send(3, Self.right + Self.wrong, client, expecting: 401)
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: Self.right)))
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks")), "refused before anything is read")
    }

    /// The client is the address `--trusted-proxy` and `X-Forwarded-For` name, an IPv6 address counted as its /64,
    /// as for claims.
    @Test func eachClientAddressHasItsOwnBudget() throws {
        let server = try TestServer(trustedProxies: ["127.0.0.1/32"])
        defer { server.shutdown() }
        let client = server.client()
        func from(_ address: String, _ key: [(String, String)]) -> [(String, String)] {
            key + [("X-Forwarded-For", address)]
        }
        try Self.send(10, from("9.9.9.9", Self.wrong), client, expecting: 401)
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: from("9.9.9.9", Self.right))))
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: from("::ffff:9.9.9.9", Self.right))))
        try Self.send(1, from("9.9.9.8", Self.right), client, expecting: 200)
        try Self.send(1, Self.right, client, expecting: 200)

        try Self.send(5, from("2001:db8:0:1::1", Self.wrong), client, expecting: 401)
        try Self.send(5, from("2001:db8:0:1:ffff::2", Self.wrong), client, expecting: 401)
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: from("2001:db8:0:1::9", Self.right))))
        try Self.send(1, from("2001:db8:0:2::1", Self.right), client, expecting: 200)
    }

    /// The dashboard's failed sign-ins and `/v1`'s wrong keys share one budget, so neither way to try a key adds to
    /// the other's.
    @Test func failedSignInsAndWrongKeysShareOneBudget() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        try Self.send(5, Self.wrong, client, expecting: 401)
        for _ in 0..<5 { #expect(try client.dashboardSignIn("sk_wrong_key").status == 401) }
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: Self.right)))
        let signIn = try client.dashboardSignIn("sk_acme_secret")
        #expect(signIn.status == 429, "the right key waits out the window")
        #expect(signIn.header("retry-after").flatMap(Int.init).map { (1...60).contains($0) } == true)

        // And the other way: ten failed sign-ins close /v1 to the address.
        let other = try TestServer()
        defer { other.shutdown() }
        let otherClient = other.client()
        try Self.send(1, Self.right, otherClient, expecting: 200)
        for _ in 0..<10 { #expect(try otherClient.dashboardSignIn("sk_wrong_key").status == 401) }
        #expect(Self.isLimited(try otherClient.request("GET", "/v1/clicks", headers: Self.right)))
        let metrics = try MetricsTests.scrape(otherClient)
        #expect(metrics.value("tolt_edge_authentication_failures_total", ["outcome": "wrong_key"]) == 10)
    }

    /// A wrong RevenueCat authorization would let a caller post purchases that pay partners: 10 a minute from a client
    /// for one organization, then the webhook is `429` before the value is read (RevenueCat retries a `429`); a post
    /// without the header tries no value and is not counted. Counted per organization and apart from `/v1`'s keys:
    /// RevenueCat posts every organization's events from one pool of addresses, and one organization's stale
    /// authorization must not get another's events refused.
    @Test func wrongWebhookAuthorizationsAreLimitedPerOrganization() throws {
        let authorization =
            #"{"organizations":[{"id":"org_other","revenuecat":{"authorization":"Bearer other_hook_9"}}]}"#
        let server = try TestServer(config: TestServer.webhookConfig, trustedProxies: ["127.0.0.1/32"])
        defer { server.shutdown() }
        try server.importConfig(authorization)
        let client = server.client()
        let body = Array(#"{"api_version":"1.0","event":{"id":"evt_x","type":"TEST","app_user_id":"u"}}"#.utf8)
        func post(_ key: String, _ value: String?, from address: String = "9.9.9.9") throws -> TestSupport.HTTPResponse
        {
            var headers = [("Content-Type", "application/json"), ("X-Forwarded-For", address)]
            if let value { headers.append(("Authorization", value)) }
            return try client.request("POST", "/webhooks/revenuecat/\(key)", headers: headers, body: body)
        }
        // org_other's authorization reaches this node's table within a moment.
        #expect(try eventually(within: 5) { try post("pk_other", "Bearer other_hook_9").status == 200 })
        for _ in 0..<20 { #expect(try post("pk_acme", nil).status == 401) }
        for index in 0..<10 { #expect(try post("pk_acme", "Bearer guess-\(index)").status == 401) }
        #expect(Self.isLimited(try post("pk_acme", "Bearer guess-10")))
        #expect(Self.isLimited(try post("pk_acme", TestServer.authorization)), "the right value waits too")
        // The same address: another organization's events, and the API, are not held.
        #expect(try post("pk_other", "Bearer other_hook_9").status == 200)
        let api = try client.request("GET", "/v1/clicks", headers: Self.right + [("X-Forwarded-For", "9.9.9.9")])
        #expect(api.status == 200, "\(api.status)")
        // Another address is not held for this organization either.
        #expect(try post("pk_acme", TestServer.authorization, from: "9.9.9.8").status == 200)
    }

    /// An empty sign-in tries no key (Enter pressed on the empty form), as a request without `Authorization` does:
    /// refused, and not counted against the network's API scripts.
    @Test func anEmptySignInIsNotCounted() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        for _ in 0..<9 {
            let empty = try client.dashboardSignIn("")
            #expect(empty.status == 400 && empty.text.contains("Enter the organization"), "\(empty.status)")
        }
        try Self.send(10, Self.wrong, client, expecting: 401)
        #expect(Self.isLimited(try client.request("GET", "/v1/clicks", headers: Self.wrong)))
    }
}
