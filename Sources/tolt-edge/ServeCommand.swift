import EdgeServer
import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge serve`.
enum ServeCommand {
    static let usage = """
        usage: tolt-edge serve [--host ADDRESS] [--port PORT] [--data DIR] [--store URL] [--threads N]
                               [--trusted-proxy CIDR]... [--public-url URL] [--demo]
                               [--tls-cert FILE --tls-key FILE] [--h2c] [--max-connections N]
                               [--geoip FILE] [--ip-storage full|anonymized|none] [--dedupe-window DURATION]
                               [--metrics-host ADDRESS] [--metrics-port PORT] [--journal-max-bytes SIZE]
                               [--dashboard-session DURATION]

          --host ADDRESS        address to listen on (default 0.0.0.0)
          --port PORT           port to listen on, 0 for any free one (default 8080)
          --data DIR            data directory: SQLite store and click journal (default ./data); with --store,
                                the node's click journal only
          --store URL           a shared PostgreSQL store, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, for
                                several nodes (default: the TOLT_STORE environment variable, else SQLite in --data)
          --threads N           event-loop threads (default: one per core)
          --trusted-proxy CIDR  believe X-Forwarded-For from this proxy network; repeatable (default: none)
          --public-url URL      the links' public base URL, e.g. https://links.example.com: the preview page's
                                og:url and the desktop page's QR code (default: none, and neither is shown)
          --demo                store the demo organization (pk_demo / sk_demo, code SAM20) and print how to try it
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
          --dashboard-session DURATION
                                how long a dashboard sign-in lasts: seconds or 90s, 30m, 8h; at most 24h (default 8h)

        SIGTERM or SIGINT stops accepting, moves every journaled click into the store, and exits 0.

        """

    static func run(_ arguments: [String]) -> Int32 {
        Output.command(usage: usage) {
            let options = try CommandLineOptions(
                arguments,
                valued: [
                    "host", "port", "data", "store", "threads", "trusted-proxy", "public-url", "tls-cert", "tls-key",
                    "max-connections", "geoip", "ip-storage", "dedupe-window", "metrics-host", "metrics-port",
                    "journal-max-bytes",
                    "dashboard-session",
                ],
                switches: ["demo", "help", "h2c"], repeatable: ["trusted-proxy"])
            if options.flags.contains("help") {
                Output.out(usage)
                return 0
            }
            var configuration = ServerConfiguration()
            configuration.host = options.value("host") ?? configuration.host
            configuration.port = try options.integer("port", in: 0...65535) ?? configuration.port
            configuration.threads = try options.integer("threads", in: 1...64) ?? configuration.threads
            configuration.dataDirectory = options.value("data") ?? configuration.dataDirectory
            configuration.postgres = try DataDirectory.location(options, dataDirectory: configuration.dataDirectory)
                .postgres
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
            if let lifetime = options.value("dashboard-session") {
                guard let milliseconds = DurationText.milliseconds(parsing: lifetime), milliseconds >= 1000 else {
                    throw CommandLineOptions.UsageError(
                        message: "--dashboard-session must be seconds (28800) or a number with s, m or h (30m, 8h), "
                            + "from 1s to 24h")
                }
                configuration.dashboardSessionLifetime = milliseconds / 1000
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
            // The demo program is imported by the server once it holds the data directory: a second `serve --demo`
            // on a directory in use is refused before it writes over the running server's program. A demo
            // organization already stored is left as the user left it (its key, its codes).
            var demo = ConfigImporter.DemoSeed.stored
            let seeding: ((any Store) throws -> Void)? =
                options.flags.contains("demo")
                ? { demo = try ConfigImporter.seedDemo(into: $0) } : nil
            EdgeServer.prepareSignals()
            let server = try EdgeServer(configuration: configuration, seeding: seeding)
            // Before the loops run.
            StandardError.captureLibraryOutput()
            server.start()
            // The address really bound: a wildcard is named as such, with the URL that reaches it from this machine.
            let everywhere = configuration.host == "0.0.0.0" || configuration.host == "::"
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            let shown = everywhere ? "localhost" : host
            let scheme = configuration.tls == nil ? "http" : "https"
            let storeShown = configuration.postgres.map { ", store \($0.masked)" } ?? ""
            let bound =
                everywhere
                ? "\(host):\(server.port), all addresses (\(scheme)://localhost:\(server.port) from this machine; "
                : "\(scheme)://\(host):\(server.port) ("
            // The notes come before the start-up line, so that whoever waits for that line has them too. A first
            // `serve` without `--demo` answers every request as unknown: say why, rather than leave a 404 to explain
            // itself.
            if server.organizationCount == 0 {
                Output.out(
                    "note: the store holds no organization yet, so every link, claim, webhook and API key is unknown"
                        + " (404 or 401) until one is imported: tolt-edge import FILE, with the same --data or --store"
                        + " (README, Configuration), or serve --demo for the demo one.\n")
            }
            if let publicURL = configuration.publicURL, publicURL.isLoopback {
                Output.out(
                    "note: the public URL \(publicURL.text) names this machine, which no phone can open: the QR codes"
                        + " of the desktop page and the dashboard lead nowhere. Give --public-url (PUBLIC_URL= with"
                        + " make serve) an address phones reach, such as http://<this machine's LAN address>:"
                        + "\(server.port).\n")
            }
            Output.out(
                "tolt-edge listening on \(bound)\(configuration.threads) thread\(configuration.threads == 1 ? "" : "s"), data in "
                    + "\(configuration.dataDirectory)\(storeShown))\n"
            )
            if let metrics = configuration.metricsListener, let port = server.metricsPort {
                Output.out("metrics on http://\(metrics.host):\(port)/metrics\n")
            }
            if options.flags.contains("demo") {
                Output.out(Self.demoBanner(demo, base: "\(scheme)://\(shown):\(server.port)"))
            }
            return server.waitForTermination() ? 0 : 1
        }
    }
}

extension ServeCommand {
    /// What `serve --demo` prints after the start-up line: what it did to the demo, then the loop to try, each line
    /// true of the demo as the store holds it (a key, code or authorization the user changed is named so, and the
    /// commands use a placeholder for it).
    static func demoBanner(_ demo: ConfigImporter.DemoSeed, base: String) -> String {
        let state = demo.state
        let key = state.secretKeyIsDemo ? "sk_demo" : "<your secret key>"
        let authorization =
            state.webhook == .demo ? ConfigImporter.demoRevenueCatAuthorization : "<your RevenueCat authorization>"
        var notes: [String] = []
        if !state.secretKeyIsDemo { notes.append("its secret key is no longer sk_demo: use the one you set") }
        if !state.codeIsActive {
            notes.append(
                "SAM20 is inactive, so its link answers 404 until you reactivate it on the dashboard's Partners page")
        }
        switch state.webhook {
        case .demo: break
        case .other:
            notes.append(
                "the webhook takes the authorization you set, not \(ConfigImporter.demoRevenueCatAuthorization)")
        case .none:
            notes.append(
                "the webhook has no authorization, so it refuses every event until you set one (dashboard, Settings → Integrations)"
            )
        }
        let noted = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        let what =
            switch demo {
            case .stored:
                "demo program stored (public key pk_demo, secret key sk_demo, code SAM20, 20% commission)"
            case .completed:
                "demo program of an older version given a 20% commission and a RevenueCat webhook authorization"
                    + " (public key pk_demo" + (notes.isEmpty ? ", secret key sk_demo, code SAM20" : noted) + ")"
            case .kept:
                "demo program already stored, kept as it is (public key pk_demo"
                    + (notes.isEmpty ? "; secret key sk_demo, code SAM20" : noted) + ")"
            }
        var lines = ["\(what). Try:"]
        if state.codeIsActive {
            lines.append(
                "  curl -i -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like"
                    + " Gecko) Version/17.0 Mobile/15E148 Safari/604.1' \(base)/a/pk_demo/sam20")
            lines.append("  open \(base)/a/pk_demo/SAM20 in a browser")
        }
        lines.append("  curl -H 'Authorization: Bearer \(key)' \(base)/v1/clicks")
        lines.append(
            "the loop (README, Quick start): claim \(state.codeIsActive ? "SAM20" : "an active code") with POST"
                + " \(base)/client/claims, post a RevenueCat INITIAL_PURCHASE to \(base)/webhooks/revenuecat/pk_demo with"
                + " 'Authorization: \(authorization)', then curl -H 'Authorization: Bearer \(key)' \(base)/v1/commissions"
        )
        lines.append(
            "dashboard: \(base)/dashboard (sign in with "
                + (state.secretKeyIsDemo ? "the demo secret key sk_demo" : "your secret key") + ")")
        return lines.joined(separator: "\n") + "\n\n"
    }
}

/// Choosing and opening a command's store: `--store URL` (or `TOLT_STORE`) for a shared PostgreSQL store, else
/// SQLite in `--data`.
enum DataDirectory {
    /// The usage text's paragraph on the two options.
    static let storeHelp = """
        The store is SQLite in --data DIR (default ./data), or the PostgreSQL database of --store URL
        (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE), or of the TOLT_STORE environment variable when
        --store is not given.
        """

    /// The location the options name; a bad URL is a usage error. `dataDirectory` is `serve`'s: its `--data` holds
    /// the node's journal beside a PostgreSQL store, so it may go with `TOLT_STORE`; for the other commands, `--data`
    /// names the SQLite store itself.
    static func location(_ options: CommandLineOptions, dataDirectory: String? = nil) throws -> StoreLocation {
        // An option given empty is a script's unset variable (`--store "$PG_URL"`): refused, as the lists refuse an
        // empty filter, rather than read as left out, which wrote to a new SQLite store in ./data (or to TOLT_STORE's)
        // and reported success. An empty TOLT_STORE stays "not set", as shells have it.
        for name in ["store", "data"] where options.value(name)?.isEmpty == true {
            throw CommandLineOptions.UsageError(message: "--\(name) is empty: give it a value, or leave it out")
        }
        let environment = getenv("TOLT_STORE").map { String(cString: $0) }
        // `prune --data /var/lib/tolt-edge` in a shell whose TOLT_STORE is set (an operator who sourced the
        // service's environment file) pruned PostgreSQL, and said only "deleted N clicks": the command names one
        // store and the variable another, so neither is chosen.
        if dataDirectory == nil, options.value("data") != nil, options.value("store") == nil,
            let environment, !environment.isEmpty
        {
            throw CommandLineOptions.UsageError(
                message: "--data names a SQLite store, but TOLT_STORE names a PostgreSQL one: "
                    + "unset TOLT_STORE for the SQLite store, or leave out --data for PostgreSQL")
        }
        do {
            return try StoreLocation.choose(
                dataDirectory: dataDirectory ?? options.value("data") ?? "./data", store: options.value("store"),
                environment: environment)
        } catch {
            throw CommandLineOptions.UsageError(message: error.message)
        }
    }

    static func openStore(_ options: CommandLineOptions) throws -> any Store {
        try location(options).openMigrated()
    }
}
