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
    /// Every program, in the records' order (by id): what the host's association files are built from
    /// (``AppAssociation``).
    public let programs: [ProgramRecord]
    /// Every conflict, in the order its code first appears in the records (what `tolt-edge import` warns about).
    public let conflicts: [Conflict]
    private let organizationByPublicKey: [String: Int]
    private let organizationBySecretKey: [String: Int]
    private let matches: [Match]
    private let index: ByteKeyTable
    /// The matches of codes folded by ``CompatibilityCharacters``, probed only after a miss: only keys that a code
    /// written with a compatibility form (`ＳＡＭ２０`, `ﬁx`) folds to are here, with every code that folds to them,
    /// so a configuration of plain codes leaves it empty.
    private let foldedMatches: [Match]
    private let foldedIndex: ByteKeyTable
    private let targetsByReference: [UInt32: LinkTarget]
    private let programsByID: [String: ProgramRecord]
    /// Each partner by id, active or not (partners are never deleted): its organization (by its program) and the name
    /// a claim's answer gives.
    private let partnersByID: [String: PartnerEntry]
    /// The programs a link that leads to no active code may still show (``deadEndProgram(publicKey:lowercasedCode:)``):
    /// only those with a store URL, since the page is there to offer the app.
    private let deadEndPrograms: [ProgramSettings]
    /// `<public_key>\0<lower-cased code>` of each code that does not match (inactive, of an inactive partner, or shared
    /// by two active partners) and whose every holder is of one such program, to that program's position in
    /// ``deadEndPrograms``. One entry per such code: it grows with the configuration, as the rest of the table does.
    private let deadEndCodes: ByteKeyTable
    /// `<public_key>\0` of each organization with exactly one program, when that program is in ``deadEndPrograms``.
    private let deadEndOrganizations: ByteKeyTable

    /// Builds the table. Only active codes of active partners take part in matching; a code that folds to
    /// the same lower case for two partners of one organization becomes a ``Match/conflict``, and so does a folded
    /// key (``CompatibilityCharacters``) that codes of two partners fold to.
    public init(_ records: ConfigRecords) {
        revision = records.revision
        organizations = records.organizations
        programs = records.programs
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
        partnersByID = partners.compactMapValues { partner in
            programsByID[partner.programID].map { PartnerEntry(organizationID: $0.organizationID, partner: partner) }
        }

        var byReference: [UInt32: LinkTarget] = [:]
        var grouped: [[UInt8]: [LinkTarget]] = [:]
        var order: [[UInt8]] = []
        var folded = FoldedKeys()
        /// The programs of every code by its key, active or not, for the dead-end index.
        var programsByKey: [[UInt8]: Set<String>] = [:]
        for code in records.codes {
            guard let partner = partners[code.partnerID], let program = settings[partner.programID],
                let position = organizationIndex[program.record.organizationID]
            else { continue }
            let target = LinkTarget(
                code: code, partner: partner, program: program, publicKey: records.organizations[position].publicKey)
            byReference[code.reference] = target
            let prefix = Array(records.organizations[position].publicKey.utf8) + [0]
            let key = prefix + Array(code.code.utf8).map(ASCII.lowercased)
            programsByKey[key, default: []].insert(partner.programID)
            guard target.isActive else { continue }
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(target)
            folded.add(target, key: key, prefix: prefix)
        }
        var matches: [Match] = []
        var conflicts: [Conflict] = []
        var entries: [(key: [UInt8], value: Int)] = []
        for key in order {
            let targets = grouped[key]!
            entries.append((key, matches.count))
            matches.append(Self.match(targets))
            if case .conflict = matches.last {
                conflicts.append(
                    Conflict(
                        organizationID: targets[0].organizationID, code: targets[0].code,
                        partnerIDs: Set(targets.map(\.partnerID)).sorted()))
            }
        }
        self.matches = matches
        self.conflicts = conflicts
        self.index = ByteKeyTable(entries)
        (foldedMatches, foldedIndex) = folded.table()
        targetsByReference = byReference
        (deadEndPrograms, deadEndCodes, deadEndOrganizations) = Self.deadEnds(
            records, settings: settings, programsByKey: programsByKey, matches: matches, index: index)
    }

    /// The dead-end index: each program with a store URL; each code key that matches no target and whose codes are
    /// all of one of them; each organization whose one program is one of them.
    private static func deadEnds(
        _ records: ConfigRecords, settings: [String: ProgramSettings], programsByKey: [[UInt8]: Set<String>],
        matches: [Match], index: ByteKeyTable
    ) -> ([ProgramSettings], ByteKeyTable, ByteKeyTable) {
        var programs: [ProgramSettings] = []
        var positions: [String: Int] = [:]
        for program in records.programs {
            guard let settings = settings[program.id],
                settings.record.appStoreURL != nil || settings.record.googlePlayURL != nil
            else { continue }
            positions[program.id] = programs.count
            programs.append(settings)
        }
        var codes: [(key: [UInt8], value: Int)] = []
        for (key, programIDs) in programsByKey {
            guard programIDs.count == 1, let position = positions[programIDs.first!] else { continue }
            let matched = key.withUnsafeBytes { bytes -> Bool in
                let zero = bytes.firstIndex(of: 0)!
                let value = index.value(
                    first: UnsafeRawBufferPointer(rebasing: bytes[..<zero]),
                    second: UnsafeRawBufferPointer(rebasing: bytes[(zero + 1)...]))
                guard let value, case .target = matches[value] else { return false }
                return true
            }
            if !matched { codes.append((key, position)) }
        }
        var programCounts: [String: Int] = [:]
        for program in records.programs { programCounts[program.organizationID, default: 0] += 1 }
        var publicKeys: [String: String] = [:]
        for organization in records.organizations { publicKeys[organization.id] = organization.publicKey }
        var organizations: [(key: [UInt8], value: Int)] = []
        for program in records.programs where programCounts[program.organizationID] == 1 {
            guard let position = positions[program.id], let publicKey = publicKeys[program.organizationID] else {
                continue
            }
            organizations.append((Array(publicKey.utf8) + [0], position))
        }
        return (programs, ByteKeyTable(codes), ByteKeyTable(organizations))
    }

    /// What codes that share a key match: their target when one partner holds them all, else a conflict.
    static func match(_ targets: [LinkTarget]) -> Match {
        guard targets.allSatisfy({ $0.partnerID == targets[0].partnerID }) else { return .conflict }
        return .target(targets[0])
    }

    /// The folded keys of the active codes, gathered while the table is built.
    private struct FoldedKeys {
        private var groups: [[UInt8]: [(target: LinkTarget, isPlain: Bool)]] = [:]
        private var order: [[UInt8]] = []
        /// The keys that a code written with a compatibility form folds to: only these go into the table.
        private var styled: Set<[UInt8]> = []

        mutating func add(_ target: LinkTarget, key: [UInt8], prefix: [UInt8]) {
            // A code of ASCII alone folds to its own key: no fold to compute.
            let foldedKey =
                target.codeBytes.allSatisfy({ $0 < 0x80 }) ? key : prefix + CompatibilityCharacters.folded(target.code)
            if groups[foldedKey] == nil { order.append(foldedKey) }
            groups[foldedKey, default: []].append((target, foldedKey == key))
            if foldedKey != key { styled.insert(foldedKey) }
        }

        /// The matches and their index. A key one partner's codes share matches the plain one among them (`SAM20`
        /// before `ＳＡＭ２０`, which the importer no longer lets a partner hold together), else the first.
        func table() -> ([Match], ByteKeyTable) {
            var matches: [Match] = []
            var entries: [(key: [UInt8], value: Int)] = []
            for key in order where styled.contains(key) {
                let codes = groups[key]!
                entries.append((key, matches.count))
                matches.append(LinkTable.match(codes.filter(\.isPlain).map(\.target) + codes.map(\.target)))
            }
            return (matches, ByteKeyTable(entries))
        }
    }

    /// The match for a public key and an already lower-cased code, with no allocation.
    @inline(__always)
    public func match(publicKey: UnsafeRawBufferPointer, lowercasedCode: UnsafeRawBufferPointer) -> Match? {
        index.value(first: publicKey, second: lowercasedCode).map { matches[$0] }
    }

    /// The match for a code that matched nothing as it is (``match(publicKey:lowercasedCode:)``), already
    /// lower-cased, with no allocation: the code without the invisible formatting characters around it
    /// (``InvisibleCharacters``: a zero-width space or bidirectional mark pasted with it), and then that code folded
    /// (``CompatibilityCharacters``: `ＳＡＭ２０` typed with an input method, `ﬁx` copied from a styled bio), which
    /// matches a code that folds the same. A code held as it was typed has matched before either: a stored full-width
    /// code is matched exactly first. A folded key that codes of two partners fold to is a ``Match/conflict``.
    @inline(never)
    public func matchAfterMiss(publicKey: UnsafeRawBufferPointer, lowercasedCode code: UnsafeRawBufferPointer)
        -> Match?
    {
        let kept = InvisibleCharacters.trimmed(code)
        guard !kept.isEmpty else { return nil }
        let trimmed = UnsafeRawBufferPointer(rebasing: code[kept])
        if kept.count != code.count, let match = match(publicKey: publicKey, lowercasedCode: trimmed) { return match }
        // A fold that does not fit is longer than any stored code's fold.
        let capacity = CompatibilityCharacters.maximumFoldedLength(of: CodeRules.maximumLength)
        return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            guard let length = CompatibilityCharacters.fold(trimmed, into: buffer) else { return nil }
            let folded = UnsafeRawBufferPointer(rebasing: buffer[..<length])
            if let position = foldedIndex.value(first: publicKey, second: folded) { return foldedMatches[position] }
            // Folded to a plain code's key (`ＳＡＭ２０` to `sam20`).
            return folded.elementsEqual(trimmed) ? nil : match(publicKey: publicKey, lowercasedCode: folded)
        }
    }

    /// The match for a public key and a code in any case, as a link matches it: as it is, else as
    /// ``matchAfterMiss(publicKey:lowercasedCode:)`` finds it.
    public func match(publicKey: String, code: String) -> Match? {
        let key = Array(publicKey.utf8)
        let folded = Array(code.utf8).map(ASCII.lowercased)
        return key.withUnsafeBytes { key in
            folded.withUnsafeBytes {
                match(publicKey: key, lowercasedCode: $0) ?? matchAfterMiss(publicKey: key, lowercasedCode: $0)
            }
        }
    }

    /// The program whose page a link that matched no target shows (``Match/conflict`` or `nil` from
    /// ``match(publicKey:lowercasedCode:)`` and ``matchAfterMiss(publicKey:lowercasedCode:)``), with no allocation:
    /// the program of the code when every code so spelled in the organization (inactive, of an inactive partner, or
    /// shared by active partners) is of one program, else the organization's program when it has only one; `nil`
    /// when the public key is unknown, when which program is meant cannot be told, and when that program has no
    /// store URL (the page is there to offer the app). The code is probed as typed, then without the invisible
    /// characters around it, then folded (``CompatibilityCharacters``), as a match is; a code stored in a
    /// compatibility form (`ＬＥＥ`) is found only as typed.
    @inline(never)
    public func deadEndProgram(publicKey: UnsafeRawBufferPointer, lowercasedCode code: UnsafeRawBufferPointer)
        -> ProgramSettings?
    {
        if let position = deadEndCodes.value(first: publicKey, second: code) { return deadEndPrograms[position] }
        let kept = InvisibleCharacters.trimmed(code)
        if !kept.isEmpty {
            let trimmed = UnsafeRawBufferPointer(rebasing: code[kept])
            if kept.count != code.count, let position = deadEndCodes.value(first: publicKey, second: trimmed) {
                return deadEndPrograms[position]
            }
            let capacity = CompatibilityCharacters.maximumFoldedLength(of: CodeRules.maximumLength)
            let position = withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer -> Int? in
                guard let length = CompatibilityCharacters.fold(trimmed, into: buffer) else { return nil }
                let folded = UnsafeRawBufferPointer(rebasing: buffer[..<length])
                return folded.elementsEqual(trimmed) ? nil : deadEndCodes.value(first: publicKey, second: folded)
            }
            if let position { return deadEndPrograms[position] }
        }
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        return deadEndOrganizations.value(first: publicKey, second: none).map { deadEndPrograms[$0] }
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

    /// Whether the partner with this id (active or not) is one of the organization's.
    public func isPartner(_ partnerID: String, of organizationID: String) -> Bool {
        partnersByID[partnerID]?.organizationID == organizationID
    }

    /// The name of the organization's partner with this id (active or not) as pages show it
    /// (``DisplayTextRules/shown(_:)``); `nil` when that shows nothing (a blank name stored before the rules), or when
    /// the partner is not the organization's or not in this table (one a newer import made, on a node whose table
    /// is older).
    public func partnerName(_ partnerID: String, of organizationID: String) -> String? {
        guard let entry = partnersByID[partnerID], entry.organizationID == organizationID else { return nil }
        return entry.name
    }

    /// How many codes take part in matching.
    public var linkCount: Int { index.count }
}

/// What the table keeps of a partner beside its codes' targets.
private struct PartnerEntry: Sendable {
    let organizationID: String
    /// ``DisplayTextRules/shown(_:)`` of the stored name, `nil` when that is blank.
    let name: String?

    init(organizationID: String, partner: PartnerRecord) {
        self.organizationID = organizationID
        let shown = DisplayTextRules.shown(partner.name)
        name = DisplayTextRules.isBlank(shown) ? nil : shown
    }
}
