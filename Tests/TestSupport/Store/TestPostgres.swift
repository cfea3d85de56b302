import EdgeStore

#if canImport(Glibc)
    import Glibc
#endif

/// The PostgreSQL cluster the tests run against: `TOLT_TEST_POSTGRES`, which `make test` and
/// `scripts/with-postgres.sh` set to a throwaway cluster's URL. Each test gets a database of its own.
package enum TestPostgres {
    /// The message a PostgreSQL case fails with when no cluster was started for it: it never skips.
    package static let missing =
        "TOLT_TEST_POSTGRES is not set: run the tests with `make test` or `scripts/with-postgres.sh swift test`"

    /// The cluster's URL (its database is only used to create and drop the tests' own).
    package static func clusterURL() throws -> String {
        guard let value = getenv("TOLT_TEST_POSTGRES").map({ String(cString: $0) }), !value.isEmpty else {
            throw TestError(missing)
        }
        return value
    }

    /// Creates an empty database and returns its URL; `options` follow `CREATE DATABASE <name>` (a locale, say).
    package static func createDatabase(options: String = "") throws -> PostgresURL {
        let cluster = try clusterURL()
        var generator = SystemRandomNumberGenerator()
        let name = "tolt_test_" + String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36)
        try PostgresStore(url: try PostgresURL(cluster)).administer(
            "CREATE DATABASE \(name)" + (options.isEmpty ? "" : " " + options))
        return try PostgresURL(url(cluster, database: name))
    }

    /// Drops a database `createDatabase()` made, closing the connections tests left open to it.
    package static func dropDatabase(_ url: PostgresURL) {
        guard let cluster = try? clusterURL(), let name = database(of: url.description), name.hasPrefix("tolt_test_")
        else { return }
        try? PostgresStore(url: try PostgresURL(cluster)).administer("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `url` with its database replaced by `database`.
    package static func url(_ url: String, database: String) -> String {
        let queryStart = url.firstIndex(of: "?") ?? url.endIndex
        let schemeEnd = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        let pathStart = url[schemeEnd..<queryStart].firstIndex(of: "/") ?? queryStart
        return String(url[..<pathStart]) + "/" + database + String(url[queryStart...])
    }

    private static func database(of url: String) -> String? {
        let queryStart = url.firstIndex(of: "?") ?? url.endIndex
        guard let slash = url[..<queryStart].lastIndex(of: "/") else { return nil }
        return String(url[url.index(after: slash)..<queryStart])
    }
}

/// Which store a test runs against: the suites that pin the store's behaviour run once for each.
package enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    package var description: String { rawValue }
}
