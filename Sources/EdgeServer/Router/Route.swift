/// One entry of the ``Router``'s table: a path, the methods it answers, and who answers.
///
/// A class, immutable: looking at a route on every request then costs one reference, not a copy of each field.
final class Route: Sendable {
    /// How a route's path matches a request's path.
    enum Path: Sendable, Equatable {
        /// The whole path.
        case exact(String)
        /// Paths that start with this text and go on (the rest is the handler's to read).
        case prefix(String)
    }

    /// Who answers a route's requests.
    enum Handler: Sendable {
        /// The link path: answered on the loop thread from the in-memory link table, by the loop's ``LinkHandler``.
        case link
        /// One of the host's association files, answered on the loop thread from the link table in force
        /// (``AppAssociationFiles``).
        case appAssociation(AppAssociationFiles.Kind)
        /// A fixed answer, given on the loop thread.
        case constant(status: Int, contentType: StaticText, body: StaticText)
        /// Work that may block (on the store): it runs on a worker thread with a copy of the request, and its
        /// answer goes back to the loop. An ``APIError`` it throws is answered in the JSON error shape; any other
        /// error is a `500`.
        case worker(@Sendable (APIRequest) throws -> APIResponse)
    }

    let path: Path
    let methods: [HTTPMethod]
    let handler: Handler
    /// Whether browsers on other origins may call it: the router answers their preflight (`OPTIONS`) and every
    /// answer carries `Access-Control-Allow-Origin: *`.
    let allowsCrossOrigin: Bool
    /// The route's `route` label in the metrics: fixed with the table, never a request's path.
    let name: String

    /// The path's bytes, compared on every request.
    let pathBytes: [UInt8]

    /// `name` labels the route's metrics; without one, the path is its label (`/v1/stats` → `v1_stats`).
    init(_ path: Path, methods: [HTTPMethod], allowsCrossOrigin: Bool = false, name: String? = nil, handler: Handler) {
        self.path = path
        self.methods = methods
        self.handler = handler
        self.allowsCrossOrigin = allowsCrossOrigin
        switch path {
        case .exact(let text), .prefix(let text): pathBytes = Array(text.utf8)
        }
        precondition(pathBytes.first == UInt8(ascii: "/"), "a route's path starts with /")
        self.name = name ?? Self.label(of: pathBytes)
    }

    /// A path as a label: lower-case letters, digits and `_`, each other byte an `_`, no leading or trailing `_`.
    private static func label(of path: [UInt8]) -> String {
        var label = String(
            decoding: path.map { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return byte
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
                default: return UInt8(ascii: "_")
                }
            }, as: UTF8.self)
        while label.hasPrefix("_") { label.removeFirst() }
        while label.hasSuffix("_") { label.removeLast() }
        return label.isEmpty ? "root" : label
    }

    /// The `Allow` header of a `405`: the route's methods, with `OPTIONS` when it answers preflights.
    var allowHeader: String {
        (methods.map(\.name) + (allowsCrossOrigin ? ["OPTIONS"] : [])).joined(separator: ", ")
    }

    /// Whether `requestPath` is this route's; for a prefix route, the rest after the prefix must not be empty.
    @inline(__always)
    func matches(_ requestPath: UnsafeRawBufferPointer) -> Bool {
        let count = pathBytes.count
        switch path {
        case .exact: guard requestPath.count == count else { return false }
        case .prefix: guard requestPath.count > count else { return false }
        }
        return pathBytes.withUnsafeBytes { memcmp($0.baseAddress!, requestPath.baseAddress!, count) == 0 }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
