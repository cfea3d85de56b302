import LinkCore

/// What an import writes: whole records, created or replacing the row with the same id, and codes
/// created or updated by partner and code (without case).
public struct ConfigChanges: Sendable, Equatable {
    public var organizations: [OrganizationRecord] = []
    public var programs: [ProgramRecord] = []
    public var partners: [PartnerRecord] = []
    /// `reference` is ignored: the store gives new codes theirs and keeps existing ones.
    public var codes: [CodeRecord] = []

    public init() {}
}

/// What an import did, for the person who ran it.
public struct ImportReport: Sendable, Equatable {
    /// One line per object created or updated, e.g. `created partner part_sam`.
    public var changes: [String] = []
    /// Problems that did not stop the import, such as a code two partners hold.
    public var warnings: [String] = []
    /// Secret keys generated for new organizations: shown once, never exported.
    public var generatedSecrets: [(organizationID: String, secretKey: String)] = []

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.changes == rhs.changes && lhs.warnings == rhs.warnings
            && lhs.generatedSecrets.map(\.organizationID) == rhs.generatedSecrets.map(\.organizationID)
            && lhs.generatedSecrets.map(\.secretKey) == rhs.generatedSecrets.map(\.secretKey)
    }
}
