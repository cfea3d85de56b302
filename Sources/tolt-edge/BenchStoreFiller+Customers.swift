import EdgeStore
import LinkCore

extension BenchStoreFiller {
    /// `plan.customers` claims (four in five from one of their partner's clicks, the rest by code), then RevenueCat
    /// events through the real planner: a third of the customers buy (9.99), half of those renew a month later when
    /// that month has passed, one purchase in twenty is refunded, and one customer in ten starts a trial.
    func fillCustomers(
        _ partners: [Partner], _ recentClicks: [[(id: String, at: Int64)]], _ random: inout BenchRandom,
        _ filled: inout Filled, progress: (String) -> Void
    ) throws {
        let span = Int64(plan.days) * 86_400_000
        let rules = Dictionary(
            try store.configRecords().programs.map { ($0.id, $0.commission) }, uniquingKeysWith: { first, _ in first })
        for index in 0..<plan.customers {
            let partnerIndex = Self.partnerIndex(&random, count: partners.count)
            let partner = partners[partnerIndex]
            let clicks = recentClicks[partnerIndex]
            var click: (id: String, at: Int64)?
            if !clicks.isEmpty && random.below(5) != 0 { click = clicks[Int(random.below(Int64(clicks.count)))] }
            let claimedAt = min(
                plan.end - 1_000, (click?.at ?? (plan.end - span + random.below(span))) + 60_000 + random.below(600_000)
            )
            let user = "bench-user-\(index + 1)"
            let result = try store.claim(
                CustomerRecord(
                    id: EntityID.make(prefix: "cust_", using: &random), organizationID: Self.organizationID,
                    customerID: user, partnerID: partner.id, programID: partner.programID, code: partner.code,
                    clickID: click?.id, status: CustomerStatus.lead.rawValue, claimedAt: claimedAt,
                    firstSeenAt: claimedAt - 30_000))
            if result.created { filled.customers += 1 }
            let rule = rules[partner.programID] ?? nil
            let draw = random.below(30)
            if draw < 10 {
                let bought = min(plan.end - 500, claimedAt + random.below(86_400_000))
                try record(
                    "INITIAL_PURCHASE", user: user, transaction: "bench-t\(index)", price: "9.99", at: bought,
                    rule: rule, &filled)
                let renewed = bought + 30 * 86_400_000
                if draw < 5 && renewed < plan.end {
                    try record(
                        "RENEWAL", user: user, transaction: "bench-r\(index)", price: "9.99", at: renewed, rule: rule,
                        &filled)
                }
                if random.below(20) == 0 {
                    try record(
                        "CANCELLATION", user: user, transaction: "bench-t\(index)",
                        at: min(plan.end - 1, bought + 3_600_000),
                        rule: rule, &filled, extra: #","cancel_reason":"CUSTOMER_SUPPORT""#)
                }
            } else if draw < 13 {
                try record(
                    "INITIAL_PURCHASE", user: user, transaction: "bench-trial\(index)", price: "0",
                    at: min(plan.end - 500, claimedAt + 60_000), rule: rule, &filled, extra: #","period_type":"TRIAL""#)
            }
            if (index + 1) % 5_000 == 0 { progress("bench-fill: \(index + 1) customers\n") }
        }
    }

    /// Records one RevenueCat event as the webhook route would, at `time`, and counts what it made.
    private func record(
        _ type: String, user: String, transaction: String, price: String? = nil, at time: Int64, rule: CommissionRule?,
        _ filled: inout Filled, extra: String = ""
    ) throws {
        let eventID = "bench-e\(filled.events + 1)"
        var json = #"{"api_version":"1.0","event":{"id":"\#(eventID)","type":"\#(type)","environment":"PRODUCTION","#
        json += #""app_user_id":"\#(user)","event_timestamp_ms":\#(time),"purchased_at_ms":\#(time),"#
        json += #""transaction_id":"\#(transaction)","product_id":"bench_monthly""#
        if let price { json += #","price":\#(price)"# }
        json += extra + "}}"
        let body = Array(json.utf8)
        let event = try RevenueCatEvent(body: body)
        let (outcome, _) = try store.recordWebhookEvent(
            WebhookEventRecord(organizationID: Self.organizationID, event: event, receivedAt: time, body: body)
        ) { event, ledger in
            CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: time) { "comm_bench_\(event.id)" }
        }
        filled.events += 1
        if outcome == .commissionCreated { filled.commissions += 1 }
    }
}

/// ``SplitMix64`` with the draws the fill makes, so the same seed fills the same store.
struct BenchRandom: RandomNumberGenerator {
    private var source: SplitMix64

    init(seed: UInt64) { source = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { source.next() }

    /// A value in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int64) -> Int64 {
        bound > 0 ? Int64(next() % UInt64(bound)) : 0
    }

    /// A value in `0..<1`.
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
