import EdgeStore

/// How `tolt-edge serve` runs; parsed and validated once at start-up.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host = "0.0.0.0"
    /// The port; 0 picks a free one (tests use this).
    public var port = 8080
    /// Event-loop threads, each with its own listener and journal stream. Defaults to the number of cores.
    public var threads = ServerConfiguration.defaultThreads
    /// Where the SQLite file and the click journal live (only the journal with ``postgres``).
    public var dataDirectory = "./data"
    /// The shared PostgreSQL store (`--store`, `TOLT_STORE`); `nil` keeps the SQLite store in ``dataDirectory``.
    public var postgres: PostgresURL? = nil

    /// The store this configuration names.
    public var storeLocation: StoreLocation { StoreLocation(dataDirectory: dataDirectory, postgres: postgres) }
    /// Proxies whose `X-Forwarded-For` is believed; none by default.
    public var trustedProxies = TrustedProxies()
    /// The public base URL of the links (`--public-url`), for the preview page's `og:url` and the desktop fallback
    /// page's QR code; without it the preview has no `og:url` and the desktop page no QR code. Never taken from a
    /// request's `Host`.
    public var publicURL: PublicURL?
    /// How many clients (IPv4 addresses, IPv6 /64s) the claim rate limit tracks at once. Should every one of them be
    /// limited, claims from new clients are refused until a window passes.
    public var claimRateLimitClients = RateLimiter.defaultMaximumClients
    /// How long after a visitor's first tap of a link a tap by the same client address and User-Agent is a repeat
    /// (`--dedupe-window`), in milliseconds: it gets the first tap's click id and counts as a click, not a unique
    /// click. 0 turns repeat taps off (every tap is a click).
    public var repeatTapWindow: Int64 = 3_600_000
    /// The visitors each loop remembers for ``repeatTapWindow``: 128 bytes each (2 MiB per loop by default). A
    /// loop holding more visitors within the window than this forgets the oldest first (see ``RepeatTapTable``).
    public var repeatTapVisitors = 16_384
    /// Where `GET /v1/stats/clicks` reads IANA timezones (TZif files) from: the system's tzdata.
    public var timeZoneDirectory = TimeZoneRules.zoneDirectory
    /// How long a dashboard session lasts after sign-in (`--dashboard-session`), in seconds.
    public var dashboardSessionLifetime: Int64 = 8 * 3600
    /// How often the configuration's revision is polled, in seconds.
    public var configPollInterval = 0.25
    /// How often the ingester looks for new clicks when idle, in seconds.
    public var ingestInterval = 0.1
    /// The most bytes the click journal may hold that are not yet in the store (`--journal-max-bytes`): past it, taps
    /// are answered `503` (never redirected unrecorded) until the store catches up. `nil`: half the room the journal's
    /// volume has at start-up (``ClickJournal/defaultMaximumBytes(directory:)``).
    public var journalMaximumBytes: Int? = nil
    /// Serve TLS with this certificate and key (ALPN `h2` and `http/1.1`); `nil` serves cleartext HTTP/1.1.
    public var tls: TLSFiles? = nil
    /// Whether cleartext connections may switch to HTTP/2 (h2c, by `Upgrade` or prior knowledge). Off by default.
    public var h2c = false
    /// The most client connections open at once, across every loop; `nil` derives it from the descriptor limit,
    /// keeping room for the journal, the store and the listeners (``DescriptorLimit``). A larger value is lowered to
    /// that.
    public var maxConnections: Int? = nil
    /// A MaxMind DB file (`--geoip`) the ingester looks each click's country up in; `nil` stores clicks without a
    /// country. Opened at start-up: a file that cannot be opened as a MaxMind DB stops the server from starting.
    public var geoIPFile: String? = nil
    /// How much of a client's address a stored click keeps (`--ip-storage`); the country is looked up first.
    public var ipStorage = IPStorage.anonymized
    /// `--metrics-host`: serve `/metrics` on a listener of its own at this address (and not on the main one). With
    /// only ``metricsPort`` set, the address is 127.0.0.1.
    public var metricsHost: String? = nil
    /// `--metrics-port`: serve `/metrics` on a listener of its own on this port (0: any free one), and not on the main
    /// one. With only ``metricsHost`` set, the port is ``defaultMetricsPort``.
    public var metricsPort: Int? = nil

    /// The metrics listener's port when only its address is given.
    public static let defaultMetricsPort = 9464

    /// Where the metrics listener binds, or `nil` when `/metrics` is served on the main listener.
    public var metricsListener: (host: String, port: Int)? {
        guard metricsHost != nil || metricsPort != nil else { return nil }
        return (metricsHost ?? "127.0.0.1", metricsPort ?? Self.defaultMetricsPort)
    }

    public init() {}

    public static var defaultThreads: Int {
        #if canImport(Glibc)
            max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #else
            2
        #endif
    }
}

#if canImport(Glibc)
    import Glibc
#endif
