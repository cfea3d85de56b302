import EdgeStore
import LinkCore

/// The JSON forms of the API's resources, shared by the API and the CLI so that both print the same thing.
public enum ResourceJSON {
    /// `"data":[…],"has_more":…`, the members of a page of a list; `separator` goes between items.
    public static func list<Item>(
        _ page: Page<Item>, separator: String = ",", into object: inout JSONWriter.ObjectWriter,
        item: (Item, inout JSONWriter) -> Void
    ) {
        object.member("data") { json in
            json.raw("[")
            for (index, element) in page.items.enumerated() {
                if index > 0 { json.raw(separator) }
                item(element, &json)
            }
            json.raw("]")
        }
        object.raw("has_more", page.hasMore ? "true" : "false")
    }

    /// A click: `id`, `created_at`, `organization_id`, `program_id`, `partner_id`, `code`, `platform`,
    /// `user_agent`, `referer` (or null) and `ip`.
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
            $0.string("ip", click.ip)
        }
    }

    /// A customer: `id`, `customer_id`, `partner_id`, `program_id`, `code`, `click_id` (or null), `status`,
    /// `claimed_at` and `first_seen_at` (or null).
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
        }
    }
}
