import EdgeServer
import EdgeStore

/// `tolt-edge serve`.
enum ServeCommand {
    static let usage = """
        usage: tolt-edge serve [--host ADDRESS] [--port PORT] [--data DIR] [--threads N]
                               [--trusted-proxy CIDR]... [--public-url URL] [--demo]

          --host ADDRESS        address to listen on (default 0.0.0.0)
          --port PORT           port to listen on, 0 for any free one (default 8080)
          --data DIR            data directory: SQLite store and click journal (default ./data)
          --threads N           event-loop threads (default: one per core)
          --trusted-proxy CIDR  believe X-Forwarded-For from this proxy network; repeatable (default: none)
          --public-url URL      the links' public base URL, e.g. https://links.example.com: the preview page's
                                og:url (default: none, and the preview has no og:url)
          --demo                store the demo organization (pk_demo / sk_demo, code SAM20) and print a link

        SIGTERM or SIGINT stops accepting, moves every journaled click into the store, and exits 0.

        """

    static func run(_ arguments: [String]) -> Int32 {
        Output.command(usage: usage) {
            let options = try CommandLineOptions(
                arguments, valued: ["host", "port", "data", "threads", "trusted-proxy", "public-url"],
                switches: ["demo", "help"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            var configuration = ServerConfiguration()
            configuration.host = options.value("host") ?? configuration.host
            configuration.port = try options.integer("port", in: 0...65535) ?? configuration.port
            configuration.threads = try options.integer("threads", in: 1...64) ?? configuration.threads
            configuration.dataDirectory = options.value("data") ?? configuration.dataDirectory
            do {
                configuration.trustedProxies = try TrustedProxies(options.values["trusted-proxy"] ?? [])
            } catch {
                throw CommandLineOptions.UsageError(message: "\(error)")
            }
            do {
                configuration.publicURL = try options.value("public-url").map { try PublicURL($0) }
            } catch {
                throw CommandLineOptions.UsageError(message: "\(error)")
            }
            if options.flags.contains("demo") {
                let store = try DataDirectory.openStore(configuration.dataDirectory)
                try ConfigImporter.importDocument(ConfigImporter.demoDocument, into: store)
            }
            EdgeServer.prepareSignals()
            let server = try EdgeServer(configuration: configuration)
            server.start()
            let shown = configuration.host == "0.0.0.0" || configuration.host == "::" ? "localhost" : configuration.host
            Output.out(
                "tolt-edge listening on http://\(shown):\(server.port) (\(configuration.threads) threads, data in \(configuration.dataDirectory))\n"
            )
            if options.flags.contains("demo") {
                Output.out(
                    """
                    demo program stored (public key pk_demo, secret key sk_demo, code SAM20). Try:
                      curl -i -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' http://\(shown):\(server.port)/a/pk_demo/sam20
                      open http://\(shown):\(server.port)/a/pk_demo/SAM20 in a browser
                      curl -H 'Authorization: Bearer sk_demo' http://\(shown):\(server.port)/v1/clicks

                    """)
            }
            return server.waitForTermination() ? 0 : 1
        }
    }
}

/// Opening the data directory's store from the CLI.
enum DataDirectory {
    static func openStore(_ directory: String) throws -> any Store {
        try StoreLocation(dataDirectory: directory).openMigrated()
    }
}
