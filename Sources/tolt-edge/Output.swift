import EdgeStore

/// Writing to standard output and error without Foundation.
enum Output {
    static func out(_ text: String) { write(1, text) }
    static func err(_ text: String) { write(2, text) }

    static func out(bytes: [UInt8]) { write(1, bytes) }

    private static func write(_ descriptor: Int32, _ text: String) { write(descriptor, Array(text.utf8)) }

    /// A failed write is dropped: output going to a closed or full destination is no reason to fail the work
    /// the command did.
    private static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = try? FileDescriptor.writeAll(descriptor, $0) }
    }

    /// Runs a command body, turning usage errors into exit code 2 with the command's help.
    static func command(usage: String, _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch let error as CommandLineOptions.UsageError {
            err("tolt-edge: \(error.message)\n\n\(usage)")
            return 2
        } catch {
            err("tolt-edge: \(error)\n")
            return 1
        }
    }

    static let mainUsage = """
        usage: tolt-edge <command> [options]

        Partner-attribution links: answers /a/<public_key>/<code>, records clicks, takes claims, turns
        RevenueCat purchases into commissions.

        commands:
          serve       run the server (--demo stores a demo program)
          import      merge a configuration file into the store
          export      print the configuration in the import form (without secrets)
          clicks      list an organization's clicks, newest first
          customers   list an organization's customers (claimed users)
          commissions list what partners earned on their customers' purchases
          payouts     list the payments recorded to partners (POST /v1/payouts records one)
          prune       delete clicks created before a date
          migrate     bring the store's schema up to date
          ua          classify User-Agents read from standard input

        Run 'tolt-edge <command> --help' for a command's options, and 'tolt-edge --version' for the store
        schema and journal format this build writes (what an upgrade or a rollback depends on).

        """
}
