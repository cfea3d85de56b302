#if canImport(Glibc)
    import Glibc
#endif

/// Writing to standard output and error without Foundation.
enum Output {
    static func out(_ text: String) { write(1, text) }
    static func err(_ text: String) { write(2, text) }

    static func out(bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
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

        Partner-attribution links: answers /a/<public_key>/<code>, records clicks, takes claims.

        commands:
          serve       run the server (--demo stores a demo program)
          import      merge a configuration file into the store
          export      print the configuration in the import form (without secret keys)
          clicks      list an organization's clicks, newest first
          customers   list an organization's customers (claimed users)
          migrate     bring the store's schema up to date
          ua          classify User-Agents read from standard input

        Run 'tolt-edge <command> --help' for a command's options.

        """
}
