import LinkCore

/// A recorded click, as the journal carries it and the store keeps it.
public struct ClickRecord: Sendable, Equatable {
    /// The longest User-Agent kept, in UTF-8 bytes; longer ones are cut (``keptText(_:limit:)``).
    public static let maximumUserAgentLength = 512
    /// The longest referer kept, in UTF-8 bytes.
    public static let maximumRefererLength = 1024
    /// The longest client address kept, in bytes.
    public static let maximumIPLength = 64

    /// A header's bytes as a click keeps them: read as UTF-8 (each byte that is not, such as a sequence the journal's
    /// cut at `limit` bytes split, becomes U+FFFD), then cut after the last whole character that ends within `limit`
    /// bytes. Reading alone could make the text up to three times longer than its bytes (U+FFFD is 3 bytes): what is
    /// stored and listed stays within the limit README states. Characters here are Unicode scalars, not grapheme
    /// clusters, whose length has no bound.
    static func keptText(_ bytes: some Collection<UInt8>, limit: Int) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count > limit else { return text }
        var kept = String.UnicodeScalarView()
        var length = 0
        for scalar in text.unicodeScalars {
            length += UTF8.width(scalar)
            guard length <= limit else { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    public var id: String
    /// Milliseconds since 1970.
    public var createdAt: Int64
    public var organizationID: String
    public var programID: String
    public var partnerID: String
    public var code: String
    public var platform: Platform
    public var userAgent: String
    public var referer: String
    /// The client's address as `--ip-storage` keeps it: whole, cut to its network, or empty (none kept). The journal
    /// carries the whole address; the ingester cuts it.
    public var ip: String
    /// The ISO 3166-1 alpha-2 country of the address (`GB`), looked up by the ingester from the whole address with
    /// `--geoip`; `nil` without a database, for an address it does not hold, or when the lookup failed.
    public var country: String?

    public init(
        id: String, createdAt: Int64, organizationID: String, programID: String, partnerID: String, code: String,
        platform: Platform, userAgent: String, referer: String, ip: String, country: String? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.organizationID = organizationID
        self.programID = programID
        self.partnerID = partnerID
        self.code = code
        self.platform = platform
        self.userAgent = userAgent
        self.referer = referer
        self.ip = ip
        self.country = country
    }
}

/// A page request for an organization's clicks.
public struct ClickQuery: Sendable, Equatable {
    /// The most clicks one page may hold.
    public static let maximumLimit = 100

    public var organizationID: String
    public var limit: Int = 20
    /// Only clicks older than this click id (the last id of the previous page).
    public var startingAfter: String?
    public var partnerID: String?
    /// Only clicks at or after this time, in milliseconds since 1970.
    public var since: Int64?

    public init(
        organizationID: String, limit: Int = 20, startingAfter: String? = nil, partnerID: String? = nil,
        since: Int64? = nil
    ) {
        self.organizationID = organizationID
        self.limit = limit
        self.startingAfter = startingAfter
        self.partnerID = partnerID
        self.since = since
    }
}
