import Foundation
import TestSupport
import Testing

@testable import EdgeServer

/// `GET /metrics` over real sockets: the counters move by what the server did, and the scrape parses strictly as
/// the text exposition format (``PrometheusText``).
@Suite struct MetricsTests {
    /// Scrapes `/metrics` and parses it; the answer must be a `200` of the 0.0.4 text format.
    static func scrape(_ client: HTTPClient) throws -> PrometheusText {
        let response = try client.request("GET", "/metrics")
        guard response.status == 200 else { throw TestError("GET /metrics: \(response.status) \(response.text)") }
        guard response.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true else {
            throw TestError("GET /metrics: content-type \(response.header("content-type") ?? "none")")
        }
        return try PrometheusText(response.text)
    }

    static let requests = "tolt_edge_http_requests_total"
    static let durations = "tolt_edge_http_request_duration_seconds"

    @Test func tapsClaimsWebhooksAndPreviewsMoveTheirCountersByWhatHappened() throws {
        let server = try TestServer.webhooks()
        defer { server.shutdown() }
        let client = server.client()
        let before = try Self.scrape(client)

        // Links: three iPhone taps (redirects, three clicks), a desktop tap on a code without a template (the page,
        // a click), an Android one (Google Play, a click), a Slack preview, a curl tap (a bot: the preview, the
        // template being a scheme only the app opens; no click), an unknown code.
        for _ in 0..<3 {
            #expect(
                try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]).status == 302)
        }
        #expect(try client.request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.desktop)]).status == 200)
        #expect(try client.request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", Agents.android)]).status == 302)
        #expect(try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.slack)]).status == 200)
        #expect(try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.curl)]).status == 200)
        #expect(try client.request("GET", "/a/pk_acme/NOPE", headers: [("User-Agent", Agents.iPhone)]).status == 404)
        // Claims: claimed, already claimed, a body that is not a claim.
        try server.claimUser("u1")
        #expect(try client.claim(ClaimBody.recent(user: "u1")).status == 200)
        #expect(try client.claim("[]").status == 400)
        // Webhooks: a purchase, its redelivery, and one with the wrong authorization.
        let purchase = RevenueCatPayload.purchase(user: "u1", price: "9.99", transaction: "t1")
        #expect(try client.deliver(purchase) == "commission_created")
        #expect(try client.deliver(purchase) == "duplicate")
        #expect(try client.webhook(purchase, authorization: "Bearer wrong").status == 401)
        // An unknown path.
        #expect(try client.request("GET", "/nowhere").status == 404)

        let after = try Self.scrape(client)
        func delta(_ name: String, _ labels: [String: String] = [:]) -> Double {
            after.value(name, labels) - before.value(name, labels)
        }
        #expect(delta(Self.requests, ["route": "link", "code": "302"]) == 4)
        #expect(delta(Self.requests, ["route": "link", "code": "200"]) == 3)
        #expect(delta(Self.requests, ["route": "link", "code": "404"]) == 1)
        #expect(delta(Self.requests, ["route": "claims", "code": "200"]) == 2)
        #expect(delta(Self.requests, ["route": "claims", "code": "400"]) == 1)
        #expect(delta(Self.requests, ["route": "webhook", "code": "200"]) == 2)
        #expect(delta(Self.requests, ["route": "webhook", "code": "401"]) == 1)
        #expect(delta(Self.requests, ["route": "unmatched", "code": "404"]) == 1)
        // The first scrape is counted by the second.
        #expect(delta(Self.requests, ["route": "metrics", "code": "200"]) == 1)
        #expect(delta(Self.durations + "_count", ["route": "link"]) == 8)
        #expect(delta(Self.durations + "_count", ["route": "claims"]) == 3)
        #expect(delta(Self.durations + "_sum", ["route": "link"]) > 0)
        #expect(after.value(Self.durations + "_bucket", ["route": "link", "le": "+Inf"]) == 8)

        #expect(delta("tolt_edge_link_answers_total", ["answer": "redirect"]) == 3)
        #expect(delta("tolt_edge_link_answers_total", ["answer": "play"]) == 1)
        #expect(delta("tolt_edge_link_answers_total", ["answer": "page"]) == 1)
        #expect(delta("tolt_edge_link_answers_total", ["answer": "preview"]) == 2)
        #expect(delta("tolt_edge_link_answers_total", ["answer": "not_found"]) == 1)
        #expect(delta("tolt_edge_link_visitors_total", ["class": "human"]) == 5)
        #expect(delta("tolt_edge_link_visitors_total", ["class": "bot"]) == 1)
        #expect(delta("tolt_edge_link_visitors_total", ["class": "preview"]) == 1)
        #expect(delta("tolt_edge_clicks_journaled_total") == 5)
        #expect(delta("tolt_edge_clicks_refused_total", ["reason": "write_failed"]) == 0)
        #expect(delta("tolt_edge_clicks_refused_total", ["reason": "journal_full"]) == 0)
        #expect(after.has("tolt_edge_journal_full") && after.value("tolt_edge_journal_full") == 0)

        #expect(delta("tolt_edge_claims_total", ["outcome": "claimed"]) == 1)
        #expect(delta("tolt_edge_claims_total", ["outcome": "already_claimed"]) == 1)
        #expect(delta("tolt_edge_claims_total", ["outcome": "invalid_request"]) == 1)
        #expect(delta("tolt_edge_webhook_events_total", ["type": "INITIAL_PURCHASE"]) == 2)
        #expect(delta("tolt_edge_webhook_outcomes_total", ["outcome": "commission_created"]) == 1)
        #expect(delta("tolt_edge_webhook_outcomes_total", ["outcome": "duplicate"]) == 1)

        // The five clicks reach the store: ingested, and the backlog empties.
        var last = after
        let ingested = try eventually(within: 5) {
            last = try Self.scrape(client)
            return last.value("tolt_edge_clicks_ingested_total") - before.value("tolt_edge_clicks_ingested_total") == 5
                && last.value("tolt_edge_journal_backlog_records") == 0
        }
        #expect(
            ingested,
            "ingested \(last.value("tolt_edge_clicks_ingested_total")), backlog \(last.value("tolt_edge_journal_backlog_records"))"
        )
        #expect(last.has("tolt_edge_journal_backlog_bytes"))
        #expect(last.value("process_open_fds") > 0)
        #expect(last.value("process_resident_memory_bytes") > 1_048_576)
        #expect(last.value("tolt_edge_start_time_seconds") > 1_700_000_000)
    }

    @Test func theScrapeIsPlainTextWithFixedLabelsAndOtherMethodsAreRefused() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        // Paths no route knows stay out of the labels: they share `unmatched`.
        for path in ["/x1", "/x2/y", "/a", "/metrics/extra"] { _ = try client.request("GET", path) }
        _ = try client.request("GET", "/a/pk_acme/%zz")
        let text = try Self.scrape(client)
        let routes = Set(text.all(Self.requests).map { $0.labels["route"] ?? "" })
        #expect(routes == ["unmatched", "link"])
        #expect(text.value(Self.requests, ["route": "unmatched", "code": "404"]) == 4)
        for sample in text.samples {
            #expect(sample.labels.values.allSatisfy { !$0.contains("x1") && !$0.contains("%") })
        }
        // Every route of the table has its histogram, from the first scrape on.
        for route in ["link", "healthz", "v1_clicks", "claims", "webhook", "metrics", "unmatched"] {
            #expect(text.has(Self.durations + "_count", ["route": route]), "\(route)")
        }

        let head = try client.request("HEAD", "/metrics")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        for method in ["POST", "PUT", "DELETE"] {
            let refused = try client.request(method, "/metrics")
            #expect(refused.status == 405, "\(method)")
            #expect(refused.header("allow") == "GET, HEAD", "\(method)")
            #expect(refused.jsonObject?["success"] as? Bool == false, "\(method)")
            #expect(refused.jsonObject?["error"] as? String == "method_not_allowed", "\(method)")
        }
    }

    /// The dashboard's usual answers are redirects (303 to the sign-in page or after a form, 308 to a page's canonical
    /// path): counted by their status, not as `other`.
    @Test func theDashboardsRedirectsAreCountedByTheirStatus() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let signIn = try client.request("GET", "/dashboard")
        let canonical = try client.request("GET", "/dashboard/sign-in/")
        #expect(signIn.status == 303, "\(signIn.status) \(signIn.text)")
        #expect(canonical.status == 308, "\(canonical.status) \(canonical.text)")
        let text = try Self.scrape(client)
        let counted = text.all(Self.requests).filter { $0.labels["route"]?.hasPrefix("dashboard") == true }
        #expect(counted.filter { $0.labels["code"] == "303" }.reduce(0) { $0 + $1.value } == 1)
        #expect(counted.filter { $0.labels["code"] == "308" }.reduce(0) { $0 + $1.value } == 1)
        #expect(counted.allSatisfy { $0.labels["code"] != "other" || $0.value == 0 })
    }

    @Test func aMetricsPortServesTheScrapeOnItsOwnListenerAndTheMainOneNoLonger() throws {
        let server = try TestServer { $0.metricsPort = 0 }
        defer { server.shutdown() }
        let metricsPort = try #require(server.server.metricsPort)
        #expect(metricsPort != server.port)
        let main = server.client()
        let missing = try main.request("GET", "/metrics")
        #expect(missing.status == 404)
        #expect(missing.jsonObject?["error"] as? String == "not_found")

        #expect(try main.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)]).status == 302)
        let metrics = HTTPClient(port: metricsPort)
        let text = try Self.scrape(metrics)
        #expect(text.value(Self.requests, ["route": "link", "code": "302"]) == 1)
        #expect(text.value(Self.requests, ["route": "unmatched", "code": "404"]) == 1)
        #expect(text.value("tolt_edge_clicks_journaled_total") == 1)
        let again = try Self.scrape(metrics)
        #expect(again.value(Self.requests, ["route": "metrics", "code": "200"]) == 1, "the first scrape, counted")

        let head = try metrics.request("HEAD", "/metrics")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(Int(head.header("content-length") ?? "") ?? 0 > 100, "the length GET would have")
        let post = try metrics.request("POST", "/metrics")
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
        #expect(post.jsonObject?["error"] as? String == "method_not_allowed")
        let other = try metrics.request("GET", "/v1/clicks")
        #expect(other.status == 404)
        #expect(other.jsonObject?["success"] as? Bool == false)
        let garbage = try metrics.exchange(Array("HELLO\r\n\r\n".utf8))
        #expect(garbage.status == 400)
    }

    @Test func aMetricsPortInUseStopsTheStartWithAnErrorNamingTheOption() throws {
        let first = try TestServer { $0.metricsPort = 0 }
        defer { first.shutdown() }
        let taken = try #require(first.server.metricsPort)
        do {
            let second = try TestServer { $0.metricsPort = taken }
            second.shutdown()
            Issue.record("a second server took metrics port \(taken)")
        } catch {
            #expect("\(error)".contains("--metrics-port \(taken)"), "\(error)")
        }
        // The first one still answers its scrapes.
        #expect(try HTTPClient(port: taken).request("GET", "/metrics").status == 200)
    }

    @Test func theMetricsListenerBindsToLoopbackByDefault() throws {
        var configuration = ServerConfiguration()
        configuration.metricsPort = 9999
        #expect(configuration.metricsListener?.host == "127.0.0.1")
        configuration.metricsPort = nil
        #expect(configuration.metricsListener == nil)
        configuration.metricsHost = "::1"
        #expect(configuration.metricsListener?.host == "::1")
        #expect(configuration.metricsListener?.port == ServerConfiguration.defaultMetricsPort)
    }
}
