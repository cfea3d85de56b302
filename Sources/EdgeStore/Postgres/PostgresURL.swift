internal import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL URL (`postgres://user:password@host:port/database?…`), checked once when given, shown only with
/// its password masked.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given (with its password): only libpq ever sees it.
    let url: String

    /// Whether `text` names a PostgreSQL store rather than a directory.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Checks the URL with libpq's own parser; the error names what is wrong, without the password.
    public init(_ text: String) throws(StoreError) {
        guard Self.isPostgres(text) else {
            throw .invalidConfig("a PostgreSQL store is a URL starting with postgres:// or postgresql://")
        }
        // libpq takes the first `@` as the end of the user info, masking the last: a second `@` (an unencoded one in
        // the password) would put part of the password in the host libpq's errors quote.
        if let schemeEnd = text.firstRange(of: "://") {
            let rest = text[schemeEnd.upperBound...]
            let authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex)]
            guard authority.filter({ $0 == "@" }).count <= 1 else {
                throw .invalidConfig(
                    "invalid PostgreSQL URL \(Self.mask(text)): more than one @ (percent-encode it as %40 in the password)"
                )
            }
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            // libpq's message is left out: it quotes the part it could not parse, which may be the password.
            PQfreemem(error)
            throw .invalidConfig(
                "invalid PostgreSQL URL \(Self.mask(text)): libpq cannot parse it (percent-encode reserved characters "
                    + "such as @, :, / and % in the user name and password)")
        }
        PQconninfoFree(options)
        url = text
    }

    /// The URL as given, password included: for this package's tests and tools that pass it on (a child process's
    /// `--store`), never for output.
    package var unmasked: String { url }

    /// The URL with its password replaced by `***`: for logs and errors.
    public var masked: String { Self.mask(url) }
    public var description: String { masked }

    /// Masks the password of the authority (`user:password@`) and a `password=` parameter.
    static func mask(_ text: String) -> String {
        var result = text
        if let schemeEnd = result.firstRange(of: "://") {
            let rest = result[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
                let colon = rest[..<at].firstIndex(of: ":")
            {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        if let query = result.firstIndex(of: "?") {
            var parts = result[result.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
                .map(String.init)
            for index in parts.indices where parts[index].lowercased().hasPrefix("password=") {
                parts[index] = "password=***"
            }
            result = String(result[...query]) + parts.joined(separator: "&")
        }
        return result
    }

    /// Connection settings that keep a call from hanging on a database that went away: a connect timeout, TCP
    /// keepalives and a user timeout (a dead peer is noticed in seconds), and a statement timeout. Settings in the
    /// URL win: it comes last (libpq keeps the last value of a repeated keyword).
    static let defaults: [(String, String)] = [
        ("connect_timeout", "3"), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
        ("keepalives_count", "3"), ("tcp_user_timeout", "10000"), ("application_name", "tolt-edge"),
        ("options", "-c statement_timeout=30000 -c client_min_messages=warning"),
    ]

    /// Calls `body` with libpq's keyword and value arrays (NULL-terminated), the URL expanded from `dbname`.
    func withConnectionParameters<T>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
        let pairs = Self.defaults + [("dbname", url)]
        let keywords = pairs.map { UnsafePointer(strdup($0.0)) } + [nil]
        let values = pairs.map { UnsafePointer(strdup($0.1)) } + [nil]
        defer {
            for pointer in keywords + values { free(UnsafeMutablePointer(mutating: pointer)) }
        }
        return keywords.withUnsafeBufferPointer { keywordBuffer in
            values.withUnsafeBufferPointer { valueBuffer in body(keywordBuffer.baseAddress!, valueBuffer.baseAddress!) }
        }
    }
}
