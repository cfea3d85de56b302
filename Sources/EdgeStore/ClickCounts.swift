/// What ``Store/clickCounts(_:)`` sums: an organization's hourly click counts whose hour starts in
/// `from..<to` (milliseconds since 1970, UTC), each hour placed in the day of its start shifted by
/// `offsetMilliseconds` (a timezone's UTC offset over that range).
public struct ClickCountQuery: Sendable, Equatable {
    /// The most rows one query returns (a caller that gets this many asks for a narrower range).
    public static let maximumLimit = 10_000

    public var organizationID: String
    /// Only this partner's counts, when set.
    public var partnerID: String?
    /// The first hour start counted, inclusive.
    public var from: Int64
    /// The hour start counting stops at, exclusive.
    public var to: Int64
    /// Added to each hour's start before its day is taken.
    public var offsetMilliseconds: Int64
    /// The most rows returned, 1 to ``maximumLimit``.
    public var limit: Int
    /// `false`: one row per day for the whole organization (``DailyClickCount/partnerID`` empty), summed from its
    /// own hourly counts: a day costs 24 rows read however many partners had clicks (the dashboard's Overview).
    /// Ignored when ``partnerID`` is set.
    public var byPartner: Bool

    /// A query with every field given.
    public init(
        organizationID: String, partnerID: String? = nil, from: Int64, to: Int64, offsetMilliseconds: Int64 = 0,
        limit: Int = ClickCountQuery.maximumLimit, byPartner: Bool = true
    ) {
        self.organizationID = organizationID
        self.partnerID = partnerID
        self.from = from
        self.to = to
        self.offsetMilliseconds = offsetMilliseconds
        self.limit = limit
        self.byPartner = byPartner
    }
}

/// One partner's clicks on one day.
public struct DailyClickCount: Sendable, Equatable {
    /// Days since 1970-01-01 in the query's offset.
    public var day: Int64
    /// The partner; empty in a query's rows that are not ``ClickCountQuery/byPartner``.
    public var partnerID: String
    /// Every counted tap: first taps and repeat taps.
    public var clicks: Int64
    /// First taps only.
    public var uniqueClicks: Int64

    /// A value with every field given.
    public init(day: Int64, partnerID: String, clicks: Int64, uniqueClicks: Int64) {
        self.day = day
        self.partnerID = partnerID
        self.clicks = clicks
        self.uniqueClicks = uniqueClicks
    }
}
