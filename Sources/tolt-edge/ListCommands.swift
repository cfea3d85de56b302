import EdgeServer
import EdgeStore
import LinkCore

/// `tolt-edge clicks`, `customers`, `commissions` and `payouts`: the API's lists, straight from the store.
enum ListCommands {
    static let clicksUsage = """
        usage: tolt-edge clicks [--data DIR | --store URL] [--org ORG] [--partner-id ID] [--limit N] [--starting-after CLICK_ID]

        Prints an organization's clicks as JSON, newest first. ORG is the organization's id (org_…) or its
        public key; --org may be left out when there is one organization. Clicks reach the store within
        about a second of their response. Each click's ip is what serve's --ip-storage kept (null for
        none) and its country the --geoip lookup's (or null).

        \(DataDirectory.storeHelp)

        """

    static let customersUsage = """
        usage: tolt-edge customers [--data DIR | --store URL] [--org ORG] [--partner-id ID] [--status STATUS]
                                   [--customer-id ID] [--limit N] [--starting-after CUSTOMER_ID]

        Prints an organization's customers (users claimed for a partner) as JSON, newest first (ORG: the
        organization's id or public key; --org may be left out when there is one), with what
        they paid (revenue_cents) and earned their partner (commission_cents), and the other app user ids
        RevenueCat tied to them (aliases: the first 100 in byte order; aliases_truncated when there are
        more). STATUS is lead, trialing, paying, canceled or refunded; ID is the app user id, the cust_… id
        or a tied id.

        \(DataDirectory.storeHelp)

        """

    static let commissionsUsage = """
        usage: tolt-edge commissions [--data DIR | --store URL] [--org ORG] [--partner-id ID] [--status pending|reversed]
                                     [--customer-id ID] [--created-since TIME] [--created-before TIME]
                                     [--paid true|false] [--payout-id PAYOUT_ID] [--limit N]
                                     [--starting-after COMMISSION_ID]

        Prints an organization's commissions (one per paid purchase of a claimed customer, from RevenueCat's
        webhook) as JSON, newest first (ORG: the organization's id or public key; --org may be left out when
        there is one). Amounts are in US cents. ID is the customer's app user id or cust_… id. TIME is an
        ISO 8601 time with its offset (2026-02-01T00:00:00Z): created_at from --created-since, included, to
        --created-before, not included. --paid false lists those no payout holds now (never paid, or owed
        again), true the others; --payout-id those that payout paid or took back (its statement).

        \(DataDirectory.storeHelp)

        """

    static let payoutsUsage = """
        usage: tolt-edge payouts [--data DIR | --store URL] [--org ORG] [--partner-id ID] [--limit N]
                                 [--starting-after PAYOUT_ID]

        Prints the payouts recorded for an organization's partners (POST /v1/payouts: what was paid outside
        the edge, the commissions it paid and the reversed ones it took back) as JSON, newest first (ORG: the
        organization's id or public key; --org may be left out when there is one). Amounts are in US cents.

        \(DataDirectory.storeHelp)

        """

    static func runClicks(_ arguments: [String]) -> Int32 {
        runList(arguments, usage: clicksUsage, filters: []) { options, store, organization, limit in
            var query = ClickQuery(organizationID: organization.id, limit: limit)
            query.partnerID = try partnerID(options, organization: organization)
            query.startingAfter = try filter(options, "starting-after") { try ListFilters.clickCursor($0, name: $1) }
            let page = try store.clicks(query)
            return { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.click) }
        }
    }

    static func runCustomers(_ arguments: [String]) -> Int32 {
        runList(arguments, usage: customersUsage, filters: ["status", "customer-id"]) {
            options, store, organization, limit in
            var query = CustomerQuery(organizationID: organization.id, limit: limit)
            query.partnerID = try partnerID(options, organization: organization)
            query.status = try status(options, as: CustomerStatus.self)?.rawValue
            query.customerID = options.value("customer-id")
            query.startingAfter = try startingAfter(options, prefix: "cust_", noun: "a customer id")
            let page = try store.customers(query)
            return { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.customer) }
        }
    }

    static func runCommissions(_ arguments: [String]) -> Int32 {
        runList(
            arguments, usage: commissionsUsage,
            filters: ["status", "customer-id", "created-since", "created-before", "paid", "payout-id"]
        ) {
            options, store, organization, limit in
            var query = CommissionQuery(organizationID: organization.id, limit: limit)
            query.partnerID = try partnerID(options, organization: organization)
            query.status = try status(options, as: CommissionStatus.self)
            query.customerID = options.value("customer-id")
            query.startingAfter = try startingAfter(options, prefix: "comm_", noun: "a commission id")
            query.createdSince = try filter(options, "created-since") { try ListFilters.time($0, name: $1) }
            query.createdBefore = try filter(options, "created-before") { try ListFilters.time($0, name: $1) }
            do {
                try ListFilters.range(
                    since: query.createdSince, before: query.createdBefore,
                    names: ("--created-since", "--created-before"))
            } catch let refusal as ListFilters.Refusal {
                throw CommandLineOptions.UsageError(message: refusal.message)
            }
            query.paid = try filter(options, "paid") { try ListFilters.boolean($0, name: $1) }
            query.payoutID = try filter(options, "payout-id") {
                try ListFilters.cursor($0, name: $1, prefix: "pay_", noun: "a payout id")
            }
            let page = try store.commissions(query)
            return { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.commission) }
        }
    }

    static func runPayouts(_ arguments: [String]) -> Int32 {
        runList(arguments, usage: payoutsUsage, filters: []) { options, store, organization, limit in
            var query = PayoutQuery(organizationID: organization.id, limit: limit)
            query.partnerID = try partnerID(options, organization: organization)
            query.startingAfter = try startingAfter(options, prefix: "pay_", noun: "a payout id")
            let page = try store.payouts(query)
            return { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.payout) }
        }
    }

    /// The organization a list command reads, and the configuration it was found in.
    struct Organization {
        let id: String
        let records: ConfigRecords
    }

    /// A list command: the options every list takes (`--data`, `--org`, `--partner-id`, `--limit`,
    /// `--starting-after`, `--help`) and `filters`; `page` reads one page and returns what writes it. Its filters
    /// are refused as the API refuses its lists' (``EdgeServer/ListFilters``), each naming its option, exit 2: an
    /// empty one (`--partner-id "$P"` with `P` unset), a partner of no organization's, a cursor that is no id of the
    /// list or names none of its rows. A page with no rows is then the answer, never a typo's.
    private static func runList(
        _ arguments: [String], usage: String, filters: [String],
        page: (CommandLineOptions, any Store, Organization, Int) throws -> (inout JSONWriter.ObjectWriter) -> Void
    ) -> Int32 {
        Output.command(usage: usage) {
            let filterOptions = ["org", "partner-id", "limit", "starting-after"] + filters
            let options = try CommandLineOptions(
                arguments, valued: Set(["data", "store"] + filterOptions), switches: ["help"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            for name in filterOptions.sorted() {
                _ = try filter(options, name) { try ListFilters.requireValue($0, name: $1) }
            }
            let store = try DataDirectory.openStore(options)
            let write: (inout JSONWriter.ObjectWriter) -> Void
            do {
                write = try page(
                    options, store, try organization(options, store: store),
                    try options.integer("limit", in: 1...100) ?? 20)
            } catch let error as StoreError where error.isUnknownCursor {
                throw CommandLineOptions.UsageError(message: "--starting-after " + error.message)
            } catch let error as StoreError where error.isUnknownFilter {
                throw CommandLineOptions.UsageError(message: "--payout-id " + error.message)
            }
            var json = JSONWriter()
            json.object { write(&$0) }
            Output.out(bytes: json.bytes + [0x0A])
            return 0
        }
    }

    /// Option `name`'s value passed through `check` (one of ``EdgeServer/ListFilters``'s, given the option's name
    /// as `--name`), its refusal a usage error; `nil` when the option is not given.
    private static func filter<Value>(
        _ options: CommandLineOptions, _ name: String, _ check: (String, String) throws -> Value
    ) throws -> Value? {
        guard let value = options.value(name) else { return nil }
        do {
            return try check(value, "--\(name)")
        } catch let refusal as ListFilters.Refusal {
            throw CommandLineOptions.UsageError(message: refusal.message)
        }
    }

    /// `--partner-id`: one of the organization's partners, active or not.
    private static func partnerID(_ options: CommandLineOptions, organization: Organization) throws -> String? {
        try filter(options, "partner-id") { partner, name in
            try ListFilters.partnerID(partner, name: name) { organization.records.isPartner($0, of: organization.id) }
        }
    }

    /// `--starting-after`, which must be an id with `prefix` (a typo would otherwise print an empty page).
    private static func startingAfter(_ options: CommandLineOptions, prefix: String, noun: String) throws -> String? {
        try filter(options, "starting-after") { try ListFilters.cursor($0, name: $1, prefix: prefix, noun: noun) }
    }

    /// `--status`, one of `Status`'s values.
    private static func status<Status: RawRepresentable & CaseIterable>(
        _ options: CommandLineOptions, as: Status.Type
    ) throws -> Status? where Status.RawValue == String {
        try filter(options, "status") { try ListFilters.status($0, name: $1, as: Status.self) }
    }

    private static func organization(_ options: CommandLineOptions, store: any Store) throws -> Organization {
        let records = try store.configRecords()
        let organizations = records.organizations
        if let named = options.value("org") {
            // The id, or the public key, which the user has at hand (the demo's banner, the app's configuration): an
            // id is looked for first, in case another organization's public key were written like it.
            guard
                let organization = organizations.first(where: { $0.id == named })
                    ?? organizations.first(where: { $0.publicKey == named })
            else {
                throw CommandLineOptions.UsageError(
                    message:
                        "--org \(QuotedText.shown(named)): no organization has this id or public key (tolt-edge export lists them)"
                )
            }
            return Organization(id: organization.id, records: records)
        }
        guard organizations.count == 1 else {
            throw CommandLineOptions.UsageError(
                message: "--org is needed: the store holds \(organizations.count) organizations ("
                    + organizations.map(\.id).joined(separator: ", ") + ")")
        }
        return Organization(id: organizations[0].id, records: records)
    }
}
