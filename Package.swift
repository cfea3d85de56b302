// swift-tools-version:6.0
import PackageDescription

// Layers point downwards only: LinkCore (pure) → EdgeStore → EdgeServer → tolt-edge; Tolt (the SDK for apps)
// beside them, depending on nothing of the server.
let package = Package(
    name: "tolt-edge",
    // For Apple apps that depend on this package for the `Tolt` library alone: the SDK needs URLSession's async API
    // (`data(for:)`), which came with macOS 12, iOS 15, tvOS 15 and watchOS 8; without the last two, SwiftPM's
    // defaults (tvOS 12, watchOS 4) would refuse to build the SDK for those apps. The server targets build on Linux
    // only (h2o, Glibc), where these minimums change nothing. It was `[.macOS(.v15)]`, which kept every iOS app out.
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .executable(name: "tolt-edge", targets: ["tolt-edge"]),
        // The SDK for apps: `import Tolt`. Foundation only (FoundationNetworking on Linux). Dynamic, so that
        // `swift build --product Tolt` builds it alone (SwiftPM refuses `--product` for an automatic library) and a
        // process holds one copy of it, with one configuration and one first open, even when an app links it from
        // its app target and from an embedded framework (a static library would be copied into each of them).
        .library(name: "Tolt", type: .dynamic, targets: ["Tolt"]),
    ],
    targets: [
        // libh2o-evloop (Debian libh2o-evloop-dev) with our C beside it: a regular C target, so that the logic that
        // must be C (response heads, loop set-up and tear-down) compiles as C files with checked layout assumptions.
        .target(
            name: "CH2O",
            linkerSettings: [.linkedLibrary("h2o-evloop"), .linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // libpq (Debian libpq-dev): the shared PostgreSQL store; only EdgeStore/Postgres imports it.
        .systemLibrary(name: "CPostgreSQL", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMaxMindDB", providers: [.apt(["libmaxminddb-dev"])]),
        // libqrencode (Debian libqrencode-dev): the desktop fallback page's QR code; EdgeServer alone links it.
        .systemLibrary(name: "CQRencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "LinkCore", resources: [.embedInCode("UserAgent/user-agent-rules.txt")]),
        .target(name: "EdgeStore", dependencies: ["LinkCore", "CSQLite", "CPostgreSQL", "CMaxMindDB"]),
        .target(
            name: "EdgeServer", dependencies: ["LinkCore", "EdgeStore", "CH2O", "COpenSSL", "CQRencode"],
            resources: [
                .embedInCode("Templates/fallback.html"), .embedInCode("Templates/preview.html"),
                .embedInCode("Templates/not-found.html"),
                // The dashboard's pages (DashboardTemplate).
                .embedInCode("Templates/Dashboard/layout.html"), .embedInCode("Templates/Dashboard/sign-in.html"),
                // The pages' words, one file per language (PageWords).
                .embedInCode("Templates/Words/words-en.txt"), .embedInCode("Templates/Words/words-de.txt"),
                .embedInCode("Templates/Words/words-fr.txt"), .embedInCode("Templates/Words/words-es.txt"),
                .embedInCode("Templates/Words/words-pt.txt"),
            ],
            // A loop's state (H2OLoop, LinkHandler) is confined to its thread, so the runtime's exclusivity checks on
            // its stored properties can never fire; in release they cost about 1% of the link path's CPU
            // (swift_beginAccess, AccessSet::insert and the TLS lookup behind them, measured with perf).
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .executableTarget(name: "tolt-edge", dependencies: ["LinkCore", "EdgeStore", "EdgeServer"]),
        .target(name: "Tolt"),
        // What the test targets share (fixtures, temporary directories, the raw HTTP client, child processes,
        // the browser session, clocks); below EdgeServer, so store and core tests build without the server.
        .target(name: "TestSupport", dependencies: ["LinkCore", "EdgeStore", "COpenSSL"], path: "Tests/TestSupport"),
        .testTarget(name: "LinkCoreTests", dependencies: ["LinkCore", "TestSupport"]),
        // Optimized even in debug builds: its fuzz tests (a million damaged journal segments, a million config
        // imports) spend their time in the test code's own bookkeeping, which runs 3 times faster with -O.
        .testTarget(
            name: "EdgeStoreTests", dependencies: ["EdgeStore", "LinkCore", "TestSupport"],
            swiftSettings: [.unsafeFlags(["-O"])]),
        .testTarget(name: "EdgeServerTests", dependencies: ["EdgeServer", "EdgeStore", "LinkCore", "TestSupport"]),
        // What the SDK's tests share: a real edge in the test process, a scripted proxy in front of it, a sandbox
        // for the SDK's state. The SDK's tests depend on the server through it; the `Tolt` target never does.
        .target(
            name: "ToltTestSupport", dependencies: ["Tolt", "EdgeServer", "EdgeStore", "LinkCore", "TestSupport"],
            path: "Tests/ToltTestSupport"),
        .testTarget(name: "ToltTests", dependencies: ["Tolt", "ToltTestSupport", "TestSupport"]),
        // The product docs' snippet, compiled as written with only `import Tolt`, compared with the docs' text (README,
        // the DocC catalog), and run against a real edge.
        .testTarget(name: "ToltDocsTests", dependencies: ["Tolt", "ToltTestSupport", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
