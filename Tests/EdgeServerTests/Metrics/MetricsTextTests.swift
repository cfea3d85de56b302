import Testing

@testable import EdgeServer

/// The pieces of a scrape without sockets: the metrics listener's request rules, label values, route labels.
@Suite struct MetricsTextTests {
    @Test func theMetricsListenerAnswersGetAndHeadOfMetricsAndRefusesTheRest() {
        func answer(_ head: String) -> MetricsRequest.Answer { MetricsRequest.answer(to: Array(head.utf8)) }
        #expect(answer("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").isScrape)
        #expect(answer("GET /metrics?name=x HTTP/1.0\r\n\r\n").isScrape)
        let head = answer("HEAD /metrics HTTP/1.1\r\n\r\n")
        #expect(head.isScrape && head.isHead)
        let post = answer("POST /metrics HTTP/1.1\r\n\r\n")
        #expect(post.status == 405 && !post.isScrape)
        #expect(post.headers.contains { $0 == ("Allow", "GET, HEAD") })
        #expect(answer("GET /metricsx HTTP/1.1\r\n\r\n").status == 404)
        #expect(answer("GET / HTTP/1.1\r\n\r\n").status == 404)
        for bad in [
            "GET /metrics\r\n\r\n", "GET /metrics HTTP/2\r\n\r\n", "get /metrics HTTP/1.1\r\n\r\n",
            "GET  /metrics HTTP/1.1\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n", "\r\n\r\n",
        ] {
            #expect(answer(bad).status == 400, "\(bad)")
        }
        #expect(MetricsRequest.isComplete(Array("GET /metrics HTTP/1.1\r\n\r\n".utf8)))
        #expect(!MetricsRequest.isComplete(Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8)))
    }

    @Test func bucketBoundsAreWrittenAsPlainDecimalSeconds() {
        #expect(Exposition.decimal(nanoseconds: 10_000) == "0.00001")
        #expect(Exposition.decimal(nanoseconds: 2_500_000) == "0.0025")
        #expect(Exposition.decimal(nanoseconds: 1_000_000_000) == "1")
        #expect(Exposition.decimal(nanoseconds: 2_500_000_000) == "2.5")
        #expect(Exposition.decimal(nanoseconds: 0) == "0")
        #expect(MetricLabels.latencyLabel(MetricLabels.latencyBounds.count) == "+Inf")
        #expect(Exposition.escaped("a\"b\\c\nd") == #"a\"b\\c\nd"#)
    }

    @Test func everyStatusHasASlotAndUnlistedOnesShareOther() {
        for (slot, status) in MetricLabels.statusCodes.enumerated() {
            #expect(MetricLabels.statusSlot(status) == slot)
            #expect(MetricLabels.statusLabel(slot) == String(status))
        }
        #expect(MetricLabels.statusLabel(MetricLabels.statusSlot(418)) == "other")
        #expect(MetricLabels.webhookTypes[MetricLabels.webhookTypeSlot("SOMETHING_NEW")] == "OTHER")
        #expect(ClaimOutcome(errorCode: "code_conflict") == .codeConflict)
        #expect(ClaimOutcome(errorCode: "internal_error") == .error)
    }

    @Test func routesWithoutANameAreLabelledByTheirPath() {
        let handler = Route.Handler.constant(status: 200, contentType: .plain, body: .plain)
        #expect(Route(.exact("/v1/stats/clicks"), methods: [.get], handler: handler).name == "v1_stats_clicks")
        #expect(Route(.prefix("/webhooks/Other/"), methods: [.get], handler: handler).name == "webhooks_other")
        #expect(Route(.exact("/"), methods: [.get], handler: handler).name == "root")
        #expect(Route(.exact("/x"), methods: [.get], name: "named", handler: handler).name == "named")
    }
}

extension MetricsTextTests {
    /// The count of claims refused before routing was a closure held in a `Mutex` itself, and every scrape's read
    /// (`withLock { $0 }`) wrapped it in one more reabstraction thunk: after some 100,000 scrapes, releasing the
    /// chain at stop overflowed the stack (a crash on SIGTERM; memory grew by every scrape before it). Read 300,000
    /// times now, it is released as the closure it was set to; the old code crashes this test.
    @Test func readingTheRefusedClaimsCountManyTimesGrowsNothing() {
        var metrics: ServerMetrics? = ServerMetrics(loops: 1, ingester: nil)
        metrics?.setRefusedBeforeRouting { 7 }
        var sum = 0
        for _ in 0..<300_000 { sum &+= metrics?.refusedClaims() ?? 0 }
        #expect(sum == 2_100_000)
        metrics = nil
    }
}
