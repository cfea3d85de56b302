/// The click counts one ingested batch adds, per organization, partner and UTC hour. SQLite writes them with one
/// upsert per row, and the organization's hours beside them (`write(into:)`); PostgreSQL writes ``rows`` in one
/// statement, and a trigger adds them to the organization's hours.
struct HourlyClickCounts {
    static let hour: Int64 = 3_600_000

    struct Key: Hashable {
        let organizationID: String
        let partnerID: String
        let hourStart: Int64
    }

    private(set) var counts: [Key: (clicks: Int64, unique: Int64)] = [:]

    /// Counts a tap in its hour: a click, and a unique click when `unique`.
    mutating func add(_ click: ClickRecord, unique: Bool) {
        let hourStart = click.createdAt - ((click.createdAt % Self.hour) + Self.hour) % Self.hour
        let key = Key(organizationID: click.organizationID, partnerID: click.partnerID, hourStart: hourStart)
        counts[key, default: (0, 0)].clicks += 1
        if unique { counts[key, default: (0, 0)].unique += 1 }
    }

    /// One hour's counts for one partner.
    struct Row {
        let organizationID: String
        let partnerID: String
        let hourStart: Int64
        let clicks: Int64
        let uniqueClicks: Int64
    }

    /// The counts as rows, for a store that writes them in one statement (``PostgresStore``).
    var rows: [Row] {
        counts.map {
            Row(
                organizationID: $0.key.organizationID, partnerID: $0.key.partnerID, hourStart: $0.key.hourStart,
                clicks: $0.value.clicks, uniqueClicks: $0.value.unique)
        }
    }
}
