import EdgeStore
import LinkCore

/// `tolt-edge bench-fill`: fills an empty store with a generated organization and months of its traffic, for
/// `bench/dashboard.sh`. Left out of the usage text on purpose: it is a tool for measuring, not for running a server.
enum BenchFillCommand {
    static let usage = """
        usage: tolt-edge bench-fill [--data DIR | --store URL] [--clicks N] [--partners N] [--customers N] [--days N] [--seed N]

        Fills DIR's store, which must hold no organization yet, with one organization (public key
        \(BenchStoreFiller.publicKey), secret key \(BenchStoreFiller.secretKey)), 4 programs, the partners and their
        codes, the clicks spread over the last days (with a repeat tap for every tenth, so clicks and unique clicks
        differ) and their hourly counts, the claimed customers, and RevenueCat events that make purchases,
        renewals, trials, refunds and their commissions. Clicks go through the store's ingest,
        \(BenchStoreFiller.batchSize) to a transaction. The same seed fills the same store, but for the dates (the
        last day ends now).

        Defaults: --data ./data --clicks 1000000 --partners 200 --customers 20000 --days 60 --seed 1

        """

    static func run(_ arguments: [String]) -> Int32 {
        Output.command(usage: usage) {
            let options = try CommandLineOptions(
                arguments, valued: ["data", "store", "clicks", "partners", "customers", "days", "seed"],
                switches: ["help"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            let plan = BenchStoreFiller.Plan(
                clicks: try options.integer("clicks", in: 0...50_000_000) ?? 1_000_000,
                partners: try options.integer("partners", in: 1...10_000) ?? 200,
                customers: try options.integer("customers", in: 0...1_000_000) ?? 20_000,
                days: try options.integer("days", in: 1...3_650) ?? 60,
                seed: UInt64(try options.integer("seed", in: 0...Int.max) ?? 1),
                end: Clock.epochMilliseconds())
            let location = try DataDirectory.location(options)
            let directory = location.postgres == nil ? location.dataDirectory : location.description
            let store = try DataDirectory.openStore(options)
            guard try store.configRecords().organizations.isEmpty else {
                throw CommandLineOptions.UsageError(
                    message:
                        "the store in \(directory) already holds an organization: bench-fill fills empty stores only")
            }
            let started = Clock.monotonicSeconds()
            let filled = try BenchStoreFiller(store: store, plan: plan).fill { Output.err($0) }
            let seconds = Clock.monotonicSeconds() - started
            Output.out(
                """
                filled \(directory): \(filled.clicks) clicks (\(filled.taps) taps) over \(plan.days) days, \
                \(plan.partners) partners, \(filled.customers) customers, \(filled.commissions) commissions, \
                \(filled.events) webhook events in \(Int(seconds)) s
                public key \(BenchStoreFiller.publicKey), secret key \(BenchStoreFiller.secretKey)

                """)
            return 0
        }
    }
}
