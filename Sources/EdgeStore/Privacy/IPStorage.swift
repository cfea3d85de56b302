/// How much of a client's address a stored click keeps (`--ip-storage`). The journal holds the full address (and the
/// whole User-Agent) until the segment holding the click is deleted: once the click is stored and its loop sealed the
/// segment, which it does when no tap came for 5 seconds or the segment is a minute old (``JournalWriter``), or at
/// 64 MiB or shutdown. This decides what the store keeps, after the country was looked up from the full address.
public enum IPStorage: String, Sendable, CaseIterable {
    /// The address as the click carried it.
    case full
    /// The network, not the host: the first three octets of an IPv4 address (`2.125.160.0`), the first 48 bits of
    /// an IPv6 address (`2001:db8:1::`), the size of a site's allocation. The default.
    case anonymized
    /// No address: the stored click's `ip` is empty (the column is `NOT NULL`), and the API shows `null`.
    case none

    /// What the store keeps of `address`. An address that does not parse is kept only by `full`: an anonymized
    /// click cannot carry text that was never cut.
    public func stored(_ address: String) -> String {
        switch self {
        case .full:
            return address
        case .anonymized:
            return IPAddress(address)?.keepingPrefix(v4: 24, v6: 48).text ?? ""
        case .none:
            return ""
        }
    }
}
