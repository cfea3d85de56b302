internal import CMaxMindDB

#if canImport(Glibc)
    import Glibc
#endif

/// The country of an address, from a MaxMind DB file (`--geoip`): GeoIP2 or GeoLite2 Country, DB-IP Lite, or a City
/// database, any database whose records carry `country.iso_code`. The only place that names libmaxminddb.
///
/// The file is mapped into memory once (`MMDB_MODE_MMAP`) and only read afterwards. Only the ingester looks
/// addresses up, off the link path.
public final class CountryLookup: @unchecked Sendable {
    // @unchecked: `database` is written once, by `MMDB_open` in `init`, and only read afterwards; libmaxminddb's
    // lookups read the mapped file and keep no state between calls, so concurrent lookups are safe.
    private let database: UnsafeMutablePointer<MMDB_s>
    /// The file it was opened from.
    public let path: String

    /// What a lookup found.
    public enum Answer: Sendable, Equatable {
        /// An ISO 3166-1 alpha-2 code, upper case.
        case country(String)
        /// The database holds no country for the address (no network, a network without a country, an IPv6
        /// address in an IPv4-only database, or a value that is not two letters).
        case unknown
        /// The database is damaged where the lookup went (a corrupt search tree or data section): libmaxminddb's
        /// reason.
        case failed(String)
    }

    /// Opens a MaxMind DB file; throws an error naming the file and libmaxminddb's reason when it cannot be read or
    /// is not a MaxMind DB.
    public init(path: String) throws {
        // Opened before any stored property is set: a class whose init throws after that runs its deinit, which
        // would close what never opened.
        let opened = UnsafeMutablePointer<MMDB_s>.allocate(capacity: 1)
        let status = MMDB_open(path, UInt32(MMDB_MODE_MMAP), opened)
        guard status == MMDB_SUCCESS else {
            let cause = errno
            opened.deallocate()
            var reason = String(cString: MMDB_strerror(status))
            if status == MMDB_FILE_OPEN_ERROR || status == MMDB_IO_ERROR {
                reason += " (" + String(cString: strerror(cause)) + ")"
            }
            throw OpenError(path: path, reason: reason)
        }
        self.path = path
        database = opened
    }

    deinit {
        MMDB_close(database)
        database.deallocate()
    }

    /// The kind of database the file says it is (`GeoIP2-Country`, `GeoLite2-City`, `DBIP-Country-Lite`, …).
    public var databaseType: String { String(cString: database.pointee.metadata.database_type) }

    /// The country of `address`.
    public func country(of address: IPAddress) -> Answer {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            switch address {
            case .v4(let a, let b, let c, let d):
                var ipv4 = sockaddr_in()
                ipv4.sin_family = sa_family_t(AF_INET)
                withUnsafeMutableBytes(of: &ipv4.sin_addr) { $0.copyBytes(from: [a, b, c, d]) }
                withUnsafeBytes(of: ipv4) { raw.copyMemory(from: $0) }
            case .v6(let bytes):
                var ipv6 = sockaddr_in6()
                ipv6.sin6_family = sa_family_t(AF_INET6)
                withUnsafeMutableBytes(of: &ipv6.sin6_addr) { $0.copyBytes(from: bytes) }
                withUnsafeBytes(of: ipv6) { raw.copyMemory(from: $0) }
            }
        }
        var status: Int32 = MMDB_SUCCESS
        var result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                MMDB_lookup_sockaddr(database, $0, &status)
            }
        }
        if status == MMDB_IPV6_LOOKUP_IN_IPV4_DATABASE_ERROR { return .unknown }
        guard status == MMDB_SUCCESS else { return .failed(String(cString: MMDB_strerror(status))) }
        guard result.found_entry else { return .unknown }
        var data = MMDB_entry_data_s()
        let found = tolt_mmdb_country_iso_code(&result.entry, &data)
        // A path the record does not have (a network with no country, such as an anonymous proxy's) is no damage.
        if found == MMDB_LOOKUP_PATH_DOES_NOT_MATCH_DATA_ERROR { return .unknown }
        guard found == MMDB_SUCCESS else { return .failed(String(cString: MMDB_strerror(found))) }
        guard data.has_data, data.type == UInt32(MMDB_DATA_TYPE_UTF8_STRING), data.data_size == 2,
            let text = data.utf8_string
        else { return .unknown }
        let letters = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let code = [letters[0], letters[1]]
        guard code.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) }) else { return .unknown }
        return .country(String(decoding: code.map { $0 & ~0x20 }, as: UTF8.self))
    }

    /// A database that could not be opened: the file and libmaxminddb's reason.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "--geoip \(path): cannot open it as a MaxMind DB: \(reason)" }
    }
}
