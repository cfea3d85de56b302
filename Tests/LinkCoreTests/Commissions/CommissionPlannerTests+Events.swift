import Testing

@testable import LinkCore

/// `TRANSFER`, the event types that change nothing, and the sample bodies of `Tests/Fixtures/revenuecat/`
/// played as one customer's story.
extension CommissionPlannerTests {
    static func transfer(from: [String], to: [String]) -> RevenueCatEvent {
        var transfer = Self.event(
            "TRANSFER", id: "evt_transfer", transaction: nil, price: nil, purchasedAt: nil, period: nil)
        transfer.appUserID = nil
        transfer.transferredFrom = from
        transfer.transferredTo = to
        return transfer
    }

    // MARK: - Transfer

    @Test func aTransferMakesTheCustomerAnswerForTheNewIDs() {
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        let plan = Self.plan(Self.transfer(from: ["anon_1", "user_1"], to: ["anon_2", "user_2"]), ledger, ties: true)
        var expected = WebhookPlan(outcome: .transferred)
        expected.aliases = ["anon_2", "user_2"]
        expected.aliasesCustomerID = Self.customerID
        expected.aliasesChangedAt = Self.eventTime
        #expect(plan == expected)
    }

    @Test func aTransferDoesNotAliasTheIDsItMovesFrom() {
        let plan = Self.plan(
            Self.transfer(from: ["anon_1", "user_1"], to: ["user_1", "user_2"]), Self.ledger(), ties: true)
        #expect(plan.outcome == .transferred)
        #expect(plan.aliases == ["user_2"])
    }

    @Test func aTransferToNoIDs() {
        let plan = Self.plan(Self.transfer(from: ["user_1"], to: []), Self.ledger(), ties: true)
        #expect(plan == WebhookPlan(outcome: .transferred))
    }

    @Test func aTransferOfAnUnclaimedCustomer() {
        let plan = Self.plan(Self.transfer(from: ["anon_1"], to: ["user_2"]), CommissionLedger(customer: nil))
        #expect(plan == WebhookPlan(outcome: .unattributed))
    }

    @Test func aTransferChangesNoMoneyOrStatus() {
        for status in CustomerStatus.allCases {
            let ledger = Self.ledger(status, changedAt: 0, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
            let plan = Self.plan(Self.transfer(from: ["user_1"], to: ["user_2"]), ledger)
            #expect(plan.customerStatus == nil)
            #expect(plan.lifecycle == nil)
            #expect(plan.transactions.isEmpty)
            #expect(plan.newCommission == nil)
            #expect(plan.commissionStatuses.isEmpty)
        }
    }

    @Test func theTransferFixture() throws {
        let event = try RevenueCatEvent(body: RevenueCatEventTests.fixture("transfer"))
        let plan = Self.plan(
            event, Self.ledger(.paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime), ties: true)
        #expect(plan.outcome == .transferred)
        #expect(plan.aliases == ["$RCAnonymousID:e1f2a3b4c5d64e7f8a9b0c1d2e3f4a5b", "user_9021"])
    }

    // MARK: - Events that change nothing

    @Test(arguments: [
        "TEST", "BILLING_ISSUE", "SUBSCRIPTION_PAUSED", "SUBSCRIPTION_EXTENDED", "PRODUCT_CHANGE",
        "TEMPORARY_ENTITLEMENT_GRANT", "SUBSCRIBER_ALIAS", "INVOICE_ISSUANCE", "VIRTUAL_CURRENCY_TRANSACTION",
        "SOMETHING_NEW", "initial_purchase", "Renewal", "REFUND", " RENEWAL",
    ])
    func ignoredTypesChangeNothing(type: String) {
        for status in CustomerStatus.allCases {
            let ledger = Self.ledger(status, changedAt: 0, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
            for price in ["4.99", "0", nil] as [String?] {
                let plan = Self.plan(Self.event(type, transaction: "tx_2", price: price, at: Self.now), ledger)
                #expect(plan == WebhookPlan(outcome: .ignored), "\(type) at \(price ?? "no price"), \(status)")
            }
            let known = Self.plan(Self.event(type, transaction: "tx_1", at: Self.now), ledger)
            #expect(known == WebhookPlan(outcome: .ignored), "\(type) of a stored transaction, \(status)")
        }
    }

    @Test(arguments: ["TEST", "BILLING_ISSUE", "PRODUCT_CHANGE", "SOMETHING_NEW"])
    func ignoredTypesOfAnUnclaimedCustomer(type: String) {
        #expect(Self.plan(Self.event(type), CommissionLedger(customer: nil)) == WebhookPlan(outcome: .ignored))
    }

    @Test(arguments: ["test", "billing_issue"])
    func ignoredFixtures(name: String) throws {
        let event = try RevenueCatEvent(body: RevenueCatEventTests.fixture(name))
        let ledger = Self.ledger(
            .paying, changedAt: Self.eventTime, firstPaidAt: Self.purchaseTime, [Self.paid("tx_1")])
        #expect(Self.plan(event, ledger) == WebhookPlan(outcome: .ignored))
    }

    @Test func theSandboxFixture() throws {
        let event = try RevenueCatEvent(body: RevenueCatEventTests.fixture("sandbox_initial_purchase"))
        #expect(Self.plan(event, Self.ledger()) == WebhookPlan(outcome: .sandbox))
    }

    @Test func theNonRenewingPurchaseFixture() throws {
        let event = try RevenueCatEvent(body: RevenueCatEventTests.fixture("non_renewing_purchase"))
        let plan = Self.plan(event, Self.ledger())
        #expect(plan.outcome == .commissionCreated)
        #expect(plan.newCommission?.revenueCents == 4_999)
        #expect(plan.newCommission?.amountCents == 1_000)  // 20 % of 49.99 is 999.8 cents
        #expect(plan.newCommission?.productID == "com.toltapp.lifetime")
    }

    // MARK: - The fixtures as one story

    /// Every sample body in the order of its event time: a trial, the purchase, an unsubscribe and its
    /// undoing, a refund and its reversal, the renewal, a billing issue, the transfer, and the expiration; the
    /// sandbox purchase and the dashboard's test event on the side.
    @Test func theFixturesTellOneCustomersStory() throws {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        let story: [(String, WebhookOutcome, CustomerStatus)] = [
            ("trial_initial_purchase", .trialStarted, .trialing),
            ("sandbox_initial_purchase", .sandbox, .trialing),
            ("initial_purchase", .commissionCreated, .paying),
            ("cancellation_unsubscribe", .statusChanged, .canceled),
            ("uncancellation", .statusChanged, .paying),
            ("cancellation_refund", .refunded, .refunded),
            ("refund_reversed", .refundReversed, .paying),
            ("renewal", .commissionCreated, .paying),
            ("billing_issue", .ignored, .paying),
            ("transfer", .transferred, .paying),
            ("expiration", .statusChanged, .canceled),
            ("test", .ignored, .canceled),
        ]
        for (name, outcome, status) in story {
            let plan = replay.play(try RevenueCatEvent(body: RevenueCatEventTests.fixture(name)))
            #expect(plan.outcome == outcome, "\(name)")
            #expect(replay.status == status, "after \(name)")
        }
        #expect(replay.ledger.transactions.map(\.transactionID) == ["2000000912345678", "2000000923456789"])
        #expect(replay.ledger.commissionStatus("2000000912345678") == .pending)
        #expect(replay.ledger.commissionStatus("2000000923456789") == .pending)
        #expect(replay.plans.compactMap(\.newCommission).map(\.amountCents) == [100, 100])
        #expect(replay.ledger.customer?.firstPaidAt == 1_772_442_900_000)
        #expect(replay.ledger.customer?.lifecycle == .canceled)
        #expect(replay.ledger.customer?.statusChangedAt == 1_777_713_302_000)
    }

    /// The same story delivered in reverse: the money ends the same (two commissions, the first one's refund
    /// undone by its later reversal), and so does the status, which follows the newest event.
    @Test func theStoryDeliveredBackwards() throws {
        var replay = CommissionReplay(ledger: Self.ledger(), rule: Self.twentyPercent, now: Self.now)
        let names = [
            "trial_initial_purchase", "initial_purchase", "cancellation_unsubscribe", "uncancellation",
            "cancellation_refund", "refund_reversed", "renewal", "billing_issue", "transfer", "expiration",
        ]
        for name in names.reversed() {
            replay.play(try RevenueCatEvent(body: RevenueCatEventTests.fixture(name)))
        }
        #expect(replay.ledger.commissionStatus("2000000912345678") == .pending)
        #expect(replay.ledger.commissionStatus("2000000923456789") == .pending)
        #expect(replay.ledger.customer?.firstPaidAt == 1_772_442_900_000)
        #expect(replay.status == .canceled)
        #expect(replay.ledger.customer?.lifecycle == .canceled)
        #expect(replay.ledger.customer?.statusChangedAt == 1_777_713_302_000)
        #expect(replay.ledger.transaction("2000000912345678")?.refunded == false)
    }
}
