import EdgeStore
import LinkCore

/// The JSON forms of the API's resources, shared by the API and the CLI so that both print the same thing.
public enum ResourceJSON {
    /// `"data":[…],"has_more":…`, the members of a page of a list; `separator` goes between items.
    public static func list<Item>(
        _ page: Page<Item>, separator: String = ",", into object: inout JSONWriter.ObjectWriter,
        item: (Item, inout JSONWriter) -> Void
    ) {
        object.member("data") { $0.array(page.items, separator: separator, item) }
        object.raw("has_more", page.hasMore ? "true" : "false")
    }

    /// A click: `id`, `created_at`, `organization_id`, `program_id`, `partner_id`, `code`, `platform`,
    /// `user_agent`, `referer` (or null), `ip` (or null: `--ip-storage none`) and `country` (ISO 3166-1 alpha-2, or
    /// null: no `--geoip`, or an address the database does not place).
    public static func click(_ click: ClickRecord, into json: inout JSONWriter) {
        json.object {
            $0.string("id", click.id)
            $0.string("created_at", Timestamp.format(click.createdAt))
            $0.string("organization_id", click.organizationID)
            $0.string("program_id", click.programID)
            $0.string("partner_id", click.partnerID)
            $0.string("code", click.code)
            $0.string("platform", click.platform.rawValue)
            $0.string("user_agent", click.userAgent)
            $0.string("referer", click.referer.isEmpty ? nil : click.referer)
            $0.string("ip", click.ip.isEmpty ? nil : click.ip)
            $0.string("country", click.country)
        }
    }

    /// A customer: `id`, `customer_id`, `partner_id`, `program_id`, `code`, `click_id` (or null), `status`,
    /// `claimed_at`, `first_seen_at` (or null), `revenue_cents` (purchases less refunds), `commission_cents`
    /// (pending commissions), `aliases` (the other app user ids RevenueCat tied to it, in byte order, the first
    /// ``CustomerRecord/maximumAliases``) and `aliases_truncated` (whether it has more).
    public static func customer(_ customer: CustomerRecord, into json: inout JSONWriter) {
        json.object {
            $0.string("id", customer.id)
            $0.string("customer_id", customer.customerID)
            $0.string("partner_id", customer.partnerID)
            $0.string("program_id", customer.programID)
            $0.string("code", customer.code)
            $0.string("click_id", customer.clickID)
            $0.string("status", customer.status)
            $0.string("claimed_at", Timestamp.format(customer.claimedAt))
            $0.string("first_seen_at", customer.firstSeenAt.map(Timestamp.format))
            $0.raw("revenue_cents", String(customer.revenueCents))
            $0.raw("commission_cents", String(customer.commissionCents))
            $0.member("aliases") { $0.array(customer.aliases) { alias, json in json.string(alias) } }
            $0.raw("aliases_truncated", customer.aliasesTruncated ? "true" : "false")
        }
    }

    /// A commission: `id`, `created_at`, `partner_id`, `program_id`, `customer_id` (the app user id),
    /// `event_id`, `transaction_id`, `product_id` (or null), `revenue_cents`, `amount` (cents), `currency`,
    /// `status` (`pending` or `reversed`), `payout_id` (the payout that paid it, or null) and `reversal_payout_id`
    /// (the payout that took it back once it was reversed, or null).
    public static func commission(_ commission: CommissionRecord, into json: inout JSONWriter) {
        json.object {
            $0.string("id", commission.id)
            $0.string("created_at", Timestamp.format(commission.createdAt))
            $0.string("partner_id", commission.partnerID)
            $0.string("program_id", commission.programID)
            $0.string("customer_id", commission.customerID)
            $0.string("event_id", commission.eventID)
            $0.string("transaction_id", commission.transactionID)
            $0.string("product_id", commission.productID)
            $0.raw("revenue_cents", String(commission.revenueCents))
            $0.raw("amount", String(commission.amountCents))
            $0.string("currency", commission.currency)
            $0.string("status", commission.status.rawValue)
            $0.string("payout_id", commission.payoutID)
            $0.string("reversal_payout_id", commission.reversalPayoutID)
        }
    }

    /// A payout: `id`, `partner_id`, `created_at`, `created_before`, `reference` (or null), `amount_cents` (paid:
    /// `commission_cents` less `reversal_cents`), `currency`, `commission_count`, `commission_cents`,
    /// `reversal_count` and `reversal_cents`.
    public static func payout(_ payout: PayoutRecord, into json: inout JSONWriter) {
        json.object {
            $0.string("id", payout.id)
            $0.string("partner_id", payout.partnerID)
            $0.string("created_at", Timestamp.format(payout.createdAt))
            $0.string("created_before", Timestamp.format(payout.createdBefore))
            $0.string("reference", payout.reference)
            $0.raw("amount_cents", String(payout.amountCents))
            $0.string("currency", payout.currency)
            $0.raw("commission_count", String(payout.commissionCount))
            $0.raw("commission_cents", String(payout.commissionCents))
            $0.raw("reversal_count", String(payout.reversalCount))
            $0.raw("reversal_cents", String(payout.reversalCents))
        }
    }

    /// A partner: `id`, `program_id`, `name`, `status`, `codes` (each `code` and `active`, in byte order, the first
    /// ``APIHandler/maximumListedCodes``), `codes_truncated`, `unpaid_cents`, `owed_back_cents`, `paid_cents` and
    /// `currency`.
    public static func partner(_ item: PartnerListItem, into json: inout JSONWriter) {
        json.object {
            $0.string("id", item.partner.id)
            $0.string("program_id", item.partner.programID)
            $0.string("name", item.partner.name)
            $0.string("status", item.partner.status)
            $0.member("codes") {
                $0.array(Array(item.codes.prefix(APIHandler.maximumListedCodes))) { code, json in
                    json.object {
                        $0.string("code", code.code)
                        $0.raw("active", code.active ? "true" : "false")
                    }
                }
            }
            $0.raw("codes_truncated", item.codes.count > APIHandler.maximumListedCodes ? "true" : "false")
            $0.raw("unpaid_cents", String(item.balance.unpaidCents))
            $0.raw("owed_back_cents", String(item.balance.owedBackCents))
            $0.raw("paid_cents", String(item.balance.paidCents))
            $0.string("currency", "USD")
        }
    }

    /// A webhook event: `event_id`, `type`, `environment`, `app_user_id`, `customer` (`cust_…` or null),
    /// `outcome`, `received_at`, `attributed_at` (when a claim that came after it applied it; null for an event
    /// applied on arrival) and `body`, the event as RevenueCat posted it, but for an escape of half a surrogate
    /// pair (`\ud83d`, an emoji an app cut in two in its own text), which goes out as `\ufffd`, what the webhook read
    /// it as: a page holding it was refused whole by many JSON readers
    /// (``JSONParser/replacingUnpairedSurrogateEscapes(in:)``). The stored body is not changed.
    public static func webhookEvent(_ event: StoredWebhookEvent, into json: inout JSONWriter) {
        json.object {
            $0.string("event_id", event.eventID)
            $0.string("type", event.type)
            $0.string("environment", event.environment)
            $0.string("app_user_id", event.appUserID)
            $0.string("customer", event.customer)
            $0.string("outcome", event.outcome)
            $0.string("received_at", Timestamp.format(event.receivedAt))
            $0.string("attributed_at", event.attributedAt.map(Timestamp.format))
            // Stored only after it parsed as JSON, so it goes out as it came in; checked again all the same, since
            // a store is not a parser: anything else goes out as a string rather than breaking the page.
            if let body = JSONParser.replacingUnpairedSurrogateEscapes(in: event.body) {
                $0.raw("body", String(decoding: body, as: UTF8.self))
            } else {
                $0.string("body", String(decoding: event.body, as: UTF8.self))
            }
        }
    }
}
