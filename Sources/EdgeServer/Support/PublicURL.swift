import LinkCore

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

    /// Validates an `http(s)` URL with a host (``URLRules/validateWebURL(_:)``) and no query or fragment.
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
        var trimmed = Substring(text)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.text = String(trimmed)
        bytes = Array(trimmed.utf8)
    }

    /// Whether the host is this machine (`localhost`, `127.0.0.1` and the rest of `127.0.0.0/8`, `[::1]`): no phone
    /// can open such a link, so the QR codes made from it (the desktop page's, the dashboard's) lead nowhere, and
    /// `serve` says so at start.
    public var isLoopback: Bool {
        // `http://host:port/prefix`: the authority is what follows `//`, up to the path.
        let authority = text.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        let host =
            authority.hasPrefix("[")
            ? authority.prefix { $0 != "]" } + "]" : authority.prefix { $0 != ":" }
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered.hasPrefix("127.")
            || lowered == "[::1]"
    }

    public var description: String { text }
}
