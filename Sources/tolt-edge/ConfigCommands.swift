import EdgeStore
import LinkCore

/// `tolt-edge import`, `export` and `migrate`.
enum ConfigCommands {
    static let importUsage = """
        usage: tolt-edge import FILE [--data DIR | --store URL]

        Merges a configuration file (JSON; - reads standard input) into the store, in one transaction:
        objects are created, or updated by id; objects not in the file stay as they are; an organization
        updated without secret_key keeps its key. A secret key that had to be generated is printed once.
        A running server picks the change up within 2 seconds (every node of a shared PostgreSQL store).

        \(DataDirectory.storeHelp)

        """

    static let exportUsage = """
        usage: tolt-edge export [--data DIR | --store URL]

        Prints the configuration in the import form, ids included; secret keys and RevenueCat authorizations
        are left out (an import without them keeps the stored ones).

        \(DataDirectory.storeHelp)

        """

    static let migrateUsage = """
        usage: tolt-edge migrate [--data DIR | --store URL]

        Brings the store's schema to the newest version (serve and import do this too). With PostgreSQL,
        several nodes may migrate at once: one does the work, the others wait for it.

        \(DataDirectory.storeHelp)

        """

    static func runImport(_ arguments: [String]) -> Int32 {
        Output.command(usage: importUsage) {
            let options = try CommandLineOptions(
                arguments, valued: ["data", "store"], switches: ["help"], maximumPositional: 1)
            if options.flags.contains("help") {
                Output.out(importUsage)
                return 0
            }
            guard let file = options.positional.first else {
                throw CommandLineOptions.UsageError(message: "import needs a FILE")
            }
            let report: ImportReport
            let unauthorized: [String]
            do {
                let document = try ConfigDocument(file: file)
                let store = try DataDirectory.openStore(options)
                report = try ConfigImporter.importDocument(document, into: store)
                // An organization the file names that has no RevenueCat authorization, stored or imported: its
                // webhook refuses every event, so no purchase ever becomes a commission, and nothing else says so
                // until RevenueCat's deliveries fail.
                let named = Set(document.organizations.compactMap(\.id) + report.generatedSecrets.map(\.organizationID))
                unauthorized = try store.configRecords().organizations
                    .filter { named.contains($0.id) && $0.revenueCatAuthorizationDigest == nil }.map(\.id)
            } catch let error as StoreError where error.isInvalidConfig {
                // The importer quotes what it names of the file bounded and escaped (QuotedText); a message is also
                // escaped whole here, so that nothing it quotes, now or later, reaches the terminal as a control.
                Output.err(
                    "tolt-edge: \(QuotedText.escapingControls(file)): \(QuotedText.escapingControls(error.message))\n"
                        + "nothing was imported\n")
                return 1
            }
            for line in report.changes { Output.out(QuotedText.escapingControls(line) + "\n") }
            if report.changes.isEmpty { Output.out("nothing to change: the store already matches \(file)\n") }
            for (organization, key) in report.generatedSecrets {
                Output.out("secret key for \(organization) (shown once, keep it safe): \(key)\n")
            }
            for warning in report.warnings { Output.err("warning: \(QuotedText.escapingControls(warning))\n") }
            for organization in unauthorized {
                Output.err(
                    "warning: organization \(QuotedText.escapingControls(organization)) has no RevenueCat"
                        + " authorization, so its webhook refuses every event and no purchase becomes a commission:"
                        + " set revenuecat.authorization (the Authorization header value you give RevenueCat) in the"
                        + " file, or in the dashboard's Settings → Integrations\n")
            }
            return 0
        }
    }

    static func runExport(_ arguments: [String]) -> Int32 {
        Output.command(usage: exportUsage) {
            let options = try CommandLineOptions(arguments, valued: ["data", "store"], switches: ["help"])
            if options.flags.contains("help") {
                Output.out(exportUsage)
                return 0
            }
            let store = try DataDirectory.openStore(options)
            Output.out(bytes: try ConfigImporter.exportDocument(from: store))
            return 0
        }
    }

    static func runMigrate(_ arguments: [String]) -> Int32 {
        Output.command(usage: migrateUsage) {
            let options = try CommandLineOptions(arguments, valued: ["data", "store"], switches: ["help"])
            if options.flags.contains("help") {
                Output.out(migrateUsage)
                return 0
            }
            let location = try DataDirectory.location(options)
            let change = try location.migrateReporting()
            if change.from == change.to {
                Output.out("store is up to date: schema \(change.to) (\(location))\n")
            } else {
                Output.out("migrated the store from schema \(change.from) to \(change.to) (\(location))\n")
            }
            return 0
        }
    }
}
