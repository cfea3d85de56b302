/// The immutable in-memory picture of the configuration that the link and claim paths read.
///
/// Built from ``ConfigRecords`` whenever the configuration changes and swapped in whole, so readers never
/// wait on the store and never see half an update.
public final class LinkTable: Sendable {
    /// What a public key and code resolve to.
    public enum Match: Sendable {
        /// One active partner holds the code.
        case target(LinkTarget)
        /// Two or more active partners of the organization hold the code.
        case conflict
    }

    /// A code two or more active partners of one organization hold, which matches as ``Match/conflict``.
    public struct Conflict: Sendable, Equatable {
        public let organizationID: String
        /// As its first holder in the records spells it.
        public let code: String
        /// The holders, sorted.
        public let partnerIDs: [String]
    }

    public let revision: Int64
    public let organizations: [OrganizationRecord]
    /// Every conflict, in the order its code first appears in the records (what `tolt-edge import` warns about).
    public let conflicts: [Conflict]
    private let organizationByPublicKey: [String: Int]
    private let organizationBySecretKey: [String: Int]
    private let matches: [Match]
    private let index: ByteKeyTable
    private let targetsByReference: [UInt32: LinkTarget]
    private let programsByID: [String: ProgramRecord]

    /// Builds the table. Only active codes of active partners take part in matching; a code that folds to
    /// the same lower case for two partners of one organization becomes a ``Match/conflict``.
    public init(_ records: ConfigRecords) {
        revision = records.revision
        organizations = records.organizations
        var byPublic: [String: Int] = [:]
        var bySecret: [String: Int] = [:]
        var organizationIndex: [String: Int] = [:]
        for (position, organization) in records.organizations.enumerated() {
            byPublic[organization.publicKey] = position
            bySecret[organization.secretKeyDigest] = position
            organizationIndex[organization.id] = position
        }
        organizationByPublicKey = byPublic
        organizationBySecretKey = bySecret

        var programsByID: [String: ProgramRecord] = [:]
        for program in records.programs { programsByID[program.id] = program }
        self.programsByID = programsByID
        var settings: [String: ProgramSettings] = [:]
        for program in records.programs {
            guard let position = organizationIndex[program.organizationID] else { continue }
            settings[program.id] = ProgramSettings(
                record: program, organizationName: records.organizations[position].name)
        }
        var partners: [String: PartnerRecord] = [:]
        for partner in records.partners { partners[partner.id] = partner }

        var byReference: [UInt32: LinkTarget] = [:]
        var grouped: [[UInt8]: [LinkTarget]] = [:]
        var order: [[UInt8]] = []
        for code in records.codes {
            guard let partner = partners[code.partnerID], let program = settings[partner.programID],
                let position = organizationIndex[program.record.organizationID]
            else { continue }
            let target = LinkTarget(
                code: code, partner: partner, program: program, publicKey: records.organizations[position].publicKey)
            byReference[code.reference] = target
            guard target.isActive else { continue }
            let key =
                Array(records.organizations[position].publicKey.utf8) + [0]
                + Array(code.code.utf8).map(ASCII.lowercased)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(target)
        }
        var matches: [Match] = []
        var conflicts: [Conflict] = []
        var entries: [(key: [UInt8], value: Int)] = []
        for key in order {
            let targets = grouped[key]!
            let partnerIDs = Set(targets.map(\.partnerID))
            entries.append((key, matches.count))
            if partnerIDs.count > 1 {
                matches.append(.conflict)
                conflicts.append(
                    Conflict(
                        organizationID: targets[0].organizationID, code: targets[0].code,
                        partnerIDs: partnerIDs.sorted()))
            } else {
                matches.append(.target(targets[0]))
            }
        }
        self.matches = matches
        self.conflicts = conflicts
        self.index = ByteKeyTable(entries)
        targetsByReference = byReference
    }

    /// The match for a public key and an already lower-cased code, with no allocation.
    @inline(__always)
    public func match(publicKey: UnsafeRawBufferPointer, lowercasedCode: UnsafeRawBufferPointer) -> Match? {
        index.value(first: publicKey, second: lowercasedCode).map { matches[$0] }
    }

    /// The match for a public key and a code in any case.
    public func match(publicKey: String, code: String) -> Match? {
        let key = Array(publicKey.utf8)
        let folded = Array(code.utf8).map(ASCII.lowercased)
        return key.withUnsafeBytes { key in folded.withUnsafeBytes { match(publicKey: key, lowercasedCode: $0) } }
    }

    /// The organization whose public key this is.
    public func organization(publicKey: String) -> OrganizationRecord? {
        organizationByPublicKey[publicKey].map { organizations[$0] }
    }

    /// The organization whose secret key this is, found by the key's digest.
    public func organization(secretKey: String) -> OrganizationRecord? {
        organizationBySecretKey[SecretDigest.of(secretKey)].map { organizations[$0] }
    }

    /// The code a click id refers to, active or not.
    public func target(reference: UInt32) -> LinkTarget? {
        targetsByReference[reference]
    }

    /// The program with this id.
    public func program(id: String) -> ProgramRecord? {
        programsByID[id]
    }

    /// How many codes take part in matching.
    public var linkCount: Int { index.count }
}
