import EdgeServer
import EdgeStore

/// `tolt-edge serve`.
enum ServeCommand {
    static let usage = """
        usage: tolt-edge serve [--host ADDRESS] [--port PORT] [--data DIR] [--threads N]
                               [--trusted-proxy CIDR]... [--public-url URL] [--demo]
                               [--tls-cert FILE --tls-key FILE] [--h2c] [--max-connections N]
                               [--geoip FILE] [--ip-storage full|anonymized|none] [--dedupe-window DURATION]
                               [--metrics-host ADDRESS] [--metrics-port PORT] [--journal-max-bytes SIZE]

          --host ADDRESS        address to listen on (default 0.0.0.0)
          --port PORT           port to listen on, 0 for any free one (default 8080)
          --data DIR            data directory: SQLite store and click journal (default ./data)
          --threads N           event-loop threads (default: one per core)
          --trusted-proxy CIDR  believe X-Forwarded-For from this proxy network; repeatable (default: none)
          --public-url URL      the links' public base URL, e.g. https://links.example.com: the preview page's
                                og:url and the desktop page's QR code (default: none, and neither is shown)
          --demo                store the demo organization (pk_demo / sk_demo, code SAM20) and print a link
          --tls-cert FILE       serve TLS (1.2 and 1.3; ALPN h2 and http/1.1) with this PEM certificate chain
          --tls-key FILE        and this PEM private key; SIGHUP reads both again for new connections
          --h2c                 let cleartext connections speak HTTP/2 (h2c); off by default
          --max-connections N   client connections open at once (default: what the descriptor limit leaves
                                after the journal, the store and the listeners; the soft limit is raised to the hard)
          --geoip FILE          a MaxMind DB (GeoIP2 or GeoLite2 Country or City, DB-IP Lite) to store each click's
                                country from (default: none, and clicks have no country)
          --ip-storage MODE     how much of a client's address a click keeps: full, anonymized (the first three
                                IPv4 octets, the first 48 bits of IPv6) or none (default anonymized)
          --dedupe-window DURATION
                                a second tap of a link by the same IP and User-Agent within this time of the first
                                gets the first tap's click id and counts as a click, not a unique click: seconds
                                (3600) or 90s, 30m, 1h; at most 24h; 0 turns it off (default 1h)
          --metrics-host ADDRESS  serve GET /metrics (Prometheus, no key) on a listener of its own at this address
          --metrics-port PORT     and port (defaults 127.0.0.1 and 9464 when only one is given), and not on the
                                  main listener; without either, /metrics is on the main listener
          --journal-max-bytes SIZE
                                the most journaled clicks not yet in the store, in bytes or 64KiB, 512MiB, 4GiB;
                                past it taps get 503 until the store catches up (default: half the room the
                                journal's volume has at start)

        SIGTERM or SIGINT stops accepting, moves every journaled click into the store, and exits 0.

        """

    static func run(_ arguments: [String]) -> Int32 {
        Output.command(usage: usage) {
            let options = try CommandLineOptions(
                arguments,
                valued: [
                    "host", "port", "data", "threads", "trusted-proxy", "public-url", "tls-cert", "tls-key",
                    "max-connections", "geoip", "ip-storage", "dedupe-window", "metrics-host", "metrics-port",
                    "journal-max-bytes",
                ],
                switches: ["demo", "help", "h2c"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            var configuration = ServerConfiguration()
            configuration.host = options.value("host") ?? configuration.host
            configuration.port = try options.integer("port", in: 0...65535) ?? configuration.port
            configuration.threads = try options.integer("threads", in: 1...64) ?? configuration.threads
            configuration.dataDirectory = options.value("data") ?? configuration.dataDirectory
            configuration.maxConnections = try options.integer("max-connections", in: 1...10_000_000)
            configuration.h2c = options.flags.contains("h2c")
            if let window = options.value("dedupe-window") {
                guard let milliseconds = DurationText.milliseconds(parsing: window) else {
                    throw CommandLineOptions.UsageError(
                        message: "--dedupe-window must be seconds (3600) or a number with s, m or h (90s, 30m, 1h), "
                            + "at most 24h; 0 turns it off")
                }
                configuration.repeatTapWindow = milliseconds
            }
            if let size = options.value("journal-max-bytes") {
                guard let bytes = ByteSizeText.bytes(parsing: size) else {
                    throw CommandLineOptions.UsageError(
                        message: "--journal-max-bytes must be bytes (1048576) or a whole number of KiB, MiB, GiB or "
                            + "TiB (512MiB, 4GiB)")
                }
                // Room for one click of the largest size per loop, or every tap would be refused with the store
                // healthy.
                let least = JournalRoom.minimumBytes(writers: configuration.threads)
                guard bytes >= least else {
                    throw CommandLineOptions.UsageError(
                        message: "--journal-max-bytes \(size) is too small for \(configuration.threads) threads: at "
                            + "least \(least) bytes, room for one click per thread")
                }
                configuration.journalMaximumBytes = bytes
            }
            configuration.geoIPFile = options.value("geoip")
            if let mode = options.value("ip-storage") {
                guard let storage = IPStorage(rawValue: mode) else {
                    throw CommandLineOptions.UsageError(message: "--ip-storage must be full, anonymized or none")
                }
                configuration.ipStorage = storage
            }
            configuration.metricsHost = options.value("metrics-host")
            configuration.metricsPort = try options.integer("metrics-port", in: 0...65535)
            switch (options.value("tls-cert"), options.value("tls-key")) {
            case (let certificate?, let key?): configuration.tls = TLSFiles(certificate: certificate, key: key)
            case (nil, nil): break
            default: throw CommandLineOptions.UsageError(message: "--tls-cert and --tls-key go together")
            }
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
            let scheme = configuration.tls == nil ? "http" : "https"
            Output.out(
                "tolt-edge listening on \(scheme)://\(shown):\(server.port) (\(configuration.threads) threads, data in \(configuration.dataDirectory))\n"
            )
            if let metrics = configuration.metricsListener, let port = server.metricsPort {
                Output.out("metrics on http://\(metrics.host):\(port)/metrics\n")
            }
            if options.flags.contains("demo") {
                Output.out(
                    """
                    demo program stored (public key pk_demo, secret key sk_demo, code SAM20). Try:
                      curl -i -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' \(scheme)://\(shown):\(server.port)/a/pk_demo/sam20
                      open \(scheme)://\(shown):\(server.port)/a/pk_demo/SAM20 in a browser
                      curl -H 'Authorization: Bearer sk_demo' \(scheme)://\(shown):\(server.port)/v1/clicks

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
