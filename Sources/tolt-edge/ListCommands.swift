import EdgeServer
import EdgeStore
import LinkCore

/// `tolt-edge clicks`, `customers` and `commissions`: the API's lists, straight from the store.
enum ListCommands {
    static let clicksUsage = """
        usage: tolt-edge clicks [--data DIR] [--org ORG_ID] [--partner-id ID] [--limit N] [--starting-after CLICK_ID]

        Prints an organization's clicks as JSON, newest first (--org may be left out when there is one
        organization). Clicks reach the store within about a second of their response.

        """

    static let customersUsage = """
        usage: tolt-edge customers [--data DIR] [--org ORG_ID] [--partner-id ID] [--status STATUS]
                                   [--customer-id APP_USER_ID] [--limit N] [--starting-after CUSTOMER_ID]

        Prints an organization's customers (users claimed for a partner) as JSON, newest first, with what
        they paid (revenue_cents) and earned their partner (commission_cents). STATUS is lead, trialing,
        paying, canceled or refunded.

        """

    static let commissionsUsage = """
        usage: tolt-edge commissions [--data DIR] [--org ORG_ID] [--partner-id ID] [--status pending|reversed]
                                     [--customer-id APP_USER_ID] [--limit N] [--starting-after COMMISSION_ID]

        Prints an organization's commissions (one per paid purchase of a claimed customer, from RevenueCat's
        webhook) as JSON, newest first. Amounts are in US cents.

        """

    static func runClicks(_ arguments: [String]) -> Int32 {
        Output.command(usage: clicksUsage) {
            let options = try CommandLineOptions(
                arguments, valued: ["data", "org", "partner-id", "limit", "starting-after"], switches: ["help"])
            if options.flags.contains("help") {
                Output.out(clicksUsage)
                return 0
            }
            let store = try DataDirectory.openStore(options.value("data") ?? "./data")
            let organization = try organizationID(options, store: store)
            var query = ClickQuery(organizationID: organization, limit: try options.integer("limit", in: 1...100) ?? 20)
            query.partnerID = options.value("partner-id")
            query.startingAfter = options.value("starting-after")
            let page = try store.clicks(query)
            var json = JSONWriter()
            json.object { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.click) }
            Output.out(bytes: json.bytes + [0x0A])
            return 0
        }
    }

    static func runCustomers(_ arguments: [String]) -> Int32 {
        Output.command(usage: customersUsage) {
            let options = try CommandLineOptions(
                arguments, valued: ["data", "org", "partner-id", "status", "customer-id", "limit", "starting-after"],
                switches: ["help"])
            if options.flags.contains("help") {
                Output.out(customersUsage)
                return 0
            }
            let store = try DataDirectory.openStore(options.value("data") ?? "./data")
            var query = CustomerQuery(
                organizationID: try organizationID(options, store: store),
                limit: try options.integer("limit", in: 1...100) ?? 20)
            query.partnerID = options.value("partner-id")
            if let status = options.value("status") {
                guard CustomerStatus(rawValue: status) != nil else {
                    throw CommandLineOptions.UsageError(
                        message: "--status must be one of "
                            + CustomerStatus.allCases.map(\.rawValue).joined(separator: ", "))
                }
                query.status = status
            }
            query.customerID = options.value("customer-id")
            query.startingAfter = options.value("starting-after")
            let page = try store.customers(query)
            var json = JSONWriter()
            json.object { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.customer) }
            Output.out(bytes: json.bytes + [0x0A])
            return 0
        }
    }

    static func runCommissions(_ arguments: [String]) -> Int32 {
        Output.command(usage: commissionsUsage) {
            let options = try CommandLineOptions(
                arguments, valued: ["data", "org", "partner-id", "status", "customer-id", "limit", "starting-after"],
                switches: ["help"])
            if options.flags.contains("help") {
                Output.out(commissionsUsage)
                return 0
            }
            let store = try DataDirectory.openStore(options.value("data") ?? "./data")
            var query = CommissionQuery(
                organizationID: try organizationID(options, store: store),
                limit: try options.integer("limit", in: 1...100) ?? 20)
            query.partnerID = options.value("partner-id")
            if let status = options.value("status") {
                guard let parsed = CommissionStatus(rawValue: status) else {
                    throw CommandLineOptions.UsageError(message: "--status must be pending or reversed")
                }
                query.status = parsed
            }
            query.customerID = options.value("customer-id")
            query.startingAfter = options.value("starting-after")
            let page = try store.commissions(query)
            var json = JSONWriter()
            json.object { ResourceJSON.list(page, separator: ",\n", into: &$0, item: ResourceJSON.commission) }
            Output.out(bytes: json.bytes + [0x0A])
            return 0
        }
    }

    private static func organizationID(_ options: CommandLineOptions, store: any Store) throws -> String {
        let organizations = try store.configRecords().organizations
        if let id = options.value("org") {
            guard organizations.contains(where: { $0.id == id }) else {
                throw CommandLineOptions.UsageError(message: "--org \(id): no such organization")
            }
            return id
        }
        guard organizations.count == 1 else {
            throw CommandLineOptions.UsageError(
                message: "--org is needed: the store holds \(organizations.count) organizations ("
                    + organizations.map(\.id).joined(separator: ", ") + ")")
        }
        return organizations[0].id
    }
}
