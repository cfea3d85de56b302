import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

extension TimeZoneRules {
    /// Where the system's tzdata lives (Debian: the `tzdata` package).
    public static let zoneDirectory = "/usr/share/zoneinfo"

    /// Whether `name` may name a zone file (``TimeZoneName/isValid(_:)``).
    public static func isValidName(_ name: String) -> Bool { TimeZoneName.isValid(name) }

    /// The rules of an IANA zone (`America/Los_Angeles`), read from `directory`; `UTC` needs no file. `nil` when
    /// the name is not valid (``isValidName(_:)``), names no regular file there, or the file is not a TZif file of
    /// version 2 or later.
    public static func named(_ name: String, in directory: String = zoneDirectory) -> TimeZoneRules? {
        if name == "UTC" { return .utc }
        guard isValidName(name) else { return nil }
        // Symbolic links are followed: tzdata links zones to one another (`US/Pacific`); the name check keeps the
        // path inside the directory.
        let descriptor = open(directory + "/" + name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size <= off_t(maximumFileSize)
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        guard count <= maximumFileSize else { return nil }
        return try? TimeZoneRules(tzif: Array(bytes[0..<count]))
    }
}
