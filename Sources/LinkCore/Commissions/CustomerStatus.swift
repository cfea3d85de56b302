/// Where a claimed customer stands: `lead` (claimed) → `trialing` → `paying` → `canceled` or `refunded`.
public enum CustomerStatus: String, Sendable, CaseIterable {
    case lead, trialing, paying, canceled, refunded
}
