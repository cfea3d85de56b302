@testable import LinkCore

/// Applies plans to a ledger the way the store is to apply them in the event's transaction, so that a test can
/// play a customer's events one after the other (in the order they arrive) and look at where they leave the
/// customer and the commissions. Only the test's own customer is kept: the ledger of a single customer.
extension CommissionLedger {
    /// The ledger after `plan`.
    func applying(_ plan: WebhookPlan) -> CommissionLedger {
        var ledger = self
        if let change = plan.customerStatus, ledger.customer != nil { ledger.customer!.status = change.status }
        if let change = plan.lifecycle, ledger.customer != nil {
            ledger.customer!.lifecycle = change.status
            ledger.customer!.statusChangedAt = change.at
        }
        if let firstPaidAt = plan.firstPaidAt, ledger.customer != nil { ledger.customer!.firstPaidAt = firstPaidAt }
        for var transaction in plan.transactions {
            // A transaction row does not carry its commission: the commission is its own row, kept as it is.
            transaction.commission = ledger.transaction(transaction.transactionID)?.commission
            if let index = ledger.transactions.firstIndex(where: { $0.transactionID == transaction.transactionID }) {
                ledger.transactions[index] = transaction
            } else {
                ledger.transactions.append(transaction)
            }
        }
        if let new = plan.newCommission, let index = ledger.index(of: new.transactionID) {
            ledger.transactions[index].commission = Commission(id: new.id, status: new.status)
        }
        for change in plan.commissionStatuses {
            let (id, status) = (change.id, change.status)
            for index in ledger.transactions.indices where ledger.transactions[index].commission?.id == id {
                ledger.transactions[index].commission!.status = status
            }
        }
        return ledger
    }

    private func index(of transactionID: String) -> Int? {
        transactions.firstIndex { $0.transactionID == transactionID }
    }

    /// The status of the commission of `transactionID`.
    func commissionStatus(_ transactionID: String) -> CommissionStatus? {
        transaction(transactionID)?.commission?.status
    }
}

/// A customer's events played through ``CommissionPlanner`` in arrival order, each plan applied before the
/// next event is planned; commission ids are `com_1`, `com_2`, … in creation order.
struct CommissionReplay {
    var ledger: CommissionLedger
    var rule: CommissionRule?
    var now: Int64
    private(set) var plans: [WebhookPlan] = []
    private var commissionCount = 0

    init(ledger: CommissionLedger, rule: CommissionRule?, now: Int64) {
        self.ledger = ledger
        self.rule = rule
        self.now = now
    }

    /// Plans `event` against the current ledger, applies the plan and returns it.
    @discardableResult
    mutating func play(_ event: RevenueCatEvent) -> WebhookPlan {
        var count = commissionCount
        let plan = CommissionPlanner.plan(event, ledger: ledger, rule: rule, now: now) {
            count += 1
            return "com_\(count)"
        }
        commissionCount = count
        ledger = ledger.applying(plan)
        plans.append(plan)
        return plan
    }

    /// Plays every event in turn and returns the outcomes.
    @discardableResult
    mutating func play(_ events: [RevenueCatEvent]) -> [WebhookOutcome] {
        events.map { play($0).outcome }
    }

    var status: CustomerStatus? { ledger.customer?.status }
}
