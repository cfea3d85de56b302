internal import CH2O

/// h2o's header tokens, looked up once: the `H2O_TOKEN_*` macros do not import into Swift.
///
/// `@unchecked Sendable`: the tokens are static, immutable data inside libh2o, and the request table is written
/// once here and never freed or changed.
struct HeaderTokens: @unchecked Sendable {
    let location: UnsafePointer<h2o_token_t>
    let contentType: UnsafePointer<h2o_token_t>
    let cacheControl: UnsafePointer<h2o_token_t>
    let server: UnsafePointer<h2o_token_t>
    let vary: UnsafePointer<h2o_token_t>
    let retryAfter: UnsafePointer<h2o_token_t>
    /// The token of each ``HTTPHeaderName``, by its raw value: a plain table that lives as long as the process,
    /// read per header lookup on the link path, where an array's bounds check and reference count would cost more
    /// than the lookup itself.
    let request: UnsafePointer<UnsafePointer<h2o_token_t>>

    static let shared = HeaderTokens()

    private init() {
        func token(_ name: String) -> UnsafePointer<h2o_token_t> {
            guard let token = name.withCString({ h2o_lookup_token($0, name.utf8.count) }) else {
                fatalError("libh2o has no token for \(name)")
            }
            return token
        }
        location = token("location")
        contentType = token("content-type")
        cacheControl = token("cache-control")
        server = token("server")
        vary = token("vary")
        retryAfter = token("retry-after")
        let tokens = HTTPHeaderName.allCases.sorted { $0.rawValue < $1.rawValue }.map { token($0.lowercasedName) }
        let table = UnsafeMutablePointer<UnsafePointer<h2o_token_t>>.allocate(capacity: tokens.count)
        table.initialize(from: tokens, count: tokens.count)
        request = UnsafePointer(table)
    }
}
