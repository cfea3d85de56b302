import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The address people reach the server's links at (`--public-url https://links.example.com`): what the preview
/// page gives as `og:url`, and what a QR code is to encode.
///
/// A link's absolute URL is built from it and never from the request's `Host`, which any client sets: a fetcher
/// that caches a card would otherwise cache whatever host it was told. A path prefix is kept, for a server behind a
/// proxy that forwards `https://example.com/go/…` to it: `https://example.com/go` gives
/// `https://example.com/go/a/<public_key>/<code>`.
public struct PublicURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL without a trailing slash, the form links are appended to.
    public let text: String
    /// `text`'s UTF-8 bytes, which the link path copies.
    let bytes: [UInt8]

    /// Validates an `http(s)` URL with a host (``URLRules/validateWebURL(_:asStored:)``), no query or fragment, and
    /// no `*`.
    ///
    /// ```swift
    /// let base = try PublicURL("https://links.example.com/")  // text: "https://links.example.com"
    /// ```
    public init(_ text: String) throws(ConfigurationError) {
        do {
            try URLRules.validateWebURL(text)
        } catch {
            throw ConfigurationError("--public-url \(text): \(error.reason)")
        }
        guard !text.contains("?") && !text.contains("#") else {
            throw ConfigurationError("--public-url \(text): must not have a query or fragment")
        }
        // The association files put the path before each organization's `/a/<public_key>/*`, where Apple and
        // Google read `*` as a wildcard: `/go*` would let every listed app open `/go<anything>/a/…` too.
        guard !text.contains("*") else {
            throw ConfigurationError(
                "--public-url \(text): must not contain *, which the association files' paths would read as a wildcard")
        }
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.text = String(trimmed)
        bytes = Array(trimmed.utf8)
    }

    /// Whether the host is this machine (`localhost` and names under it, `127.0.0.0/8` in any spelling a browser
    /// takes, such as `127.1`, `0.0.0.0`, `[::1]`, `[::]` and IPv4-mapped `[::ffff:127.0.0.1]`): no phone can open such
    /// a link, so the QR codes made from it (the desktop page's, the dashboard's) lead nowhere, and `serve` says so at
    /// start. A name that only resolves to this machine (`/etc/hosts`) is not looked up.
    public var isLoopback: Bool {
        // `http://host:port/prefix`: the authority is what follows `//`, up to the path; ``init(_:)`` refused a user
        // name, so it is `host[:port]` or `[IPv6][:port]`.
        let authority = text.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        if authority.hasPrefix("[") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(authority.dropFirst().prefix { $0 != "]" }), &address) == 1 else {
                return false
            }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            let zeros = bytes.prefix(15).allSatisfy { $0 == 0 }
            let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return (zeros && bytes[15] <= 1) || (mapped && (bytes[12] == 127 || bytes.suffix(4).allSatisfy { $0 == 0 }))
        }
        let host = authority.prefix { $0 != ":" }.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        // inet_aton reads the forms a browser's URL parser does too: `127.1`, `0x7f.0.0.1`, `2130706433`.
        var address = in_addr()
        guard inet_aton(host, &address) != 0 else { return false }
        let value = UInt32(bigEndian: address.s_addr)
        return value >> 24 == 127 || value == 0
    }

    public var description: String { text }
}
