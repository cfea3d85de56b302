/// The rule an IANA time zone name (`America/Los_Angeles`) follows wherever one is taken: an organization's
/// `timezone` in an import, `GET /v1/stats/clicks?timezone=`, and the name of the zone file read for it.
public enum TimeZoneName {
    /// Whether `name` may name a zone file: 1 to 64 bytes of components of letters, digits, `_`, `+` and `-`
    /// joined by single `/`, each starting with an uppercase letter, and not `Factory`. No `..`, no absolute path, no
    /// NUL: nothing outside the zone directory can be named.
    ///
    /// Every name of the tz database, zones and links alike (`UTC`, `Etc/GMT+5`, `America/Port-au-Prince`,
    /// `US/Pacific`), starts each component with an uppercase letter; the other files a zone directory holds do not:
    /// `localtime` (on Debian a link to `/etc/localtime`, the host's own zone), `posixrules`, the `posix/` and
    /// `right/` trees (copies of the zones, the latter counting leap seconds), and the tables (`zone.tab`,
    /// `tzdata.zi`, `leapseconds`). `Factory` is a zone of the database that names no place: its abbreviation `-00`
    /// means "local time unknown".
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), name != "Factory" else { return false }
        var componentStart = true
        for byte in bytes {
            if byte == 0x2F {
                if componentStart { return false }
                componentStart = true
                continue
            }
            let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            let digit = byte >= 0x30 && byte <= 0x39
            guard letter || digit || byte == 0x5F || byte == 0x2B || byte == 0x2D else { return false }
            if componentStart && !(byte >= 0x41 && byte <= 0x5A) { return false }
            componentStart = false
        }
        return !componentStart
    }

    /// The name to set instead of a stored `name` this rule refuses, which an earlier build accepted (any file of the
    /// zone directory): the zone a `posix/` or `right/` copy copies (`posix/Europe/Paris` → `Europe/Paris`), and
    /// `UTC` for the rest (`localtime`, `posixrules`, `Factory`), which name no place.
    public static func replacement(for name: String) -> String {
        for tree in ["posix/", "right/"] where name.hasPrefix(tree) {
            let zone = String(name.dropFirst(tree.count))
            if isValid(zone) { return zone }
        }
        return "UTC"
    }
}
