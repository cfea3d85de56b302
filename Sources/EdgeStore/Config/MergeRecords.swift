/// Records as the merge keeps them while it plans: in order, an updated one moved to the end (as removing it and
/// appending it again did), found by identity and by group without a scan. The merge looked each partner and code up
/// in whole arrays, and replaced it by filtering them: an import of 50,000 partners took 52 s, 20,000 took 6.7 s.
///
/// A replaced record leaves an empty slot behind, so slot numbers never change; a group's list of slots keeps the
/// empty ones, which its look-ups skip.
struct MergeRecords<Record, Identity: Hashable, Group: Hashable> {
    private var slots: [Record?] = []
    private var slotsByIdentity: [Identity: [Int]] = [:]
    private var slotsByGroup: [Group: [Int]] = [:]
    private let identity: (Record) -> Identity
    private let group: (Record) -> Group

    /// `records` in their order, told apart by `identity` (a record replaces every one of the same identity) and
    /// gathered by `group`.
    init(_ records: [Record], identity: @escaping (Record) -> Identity, group: @escaping (Record) -> Group) {
        self.identity = identity
        self.group = group
        for record in records { append(record) }
    }

    /// The first record with `identity`, in order.
    func first(_ identity: Identity) -> Record? {
        slotsByIdentity[identity]?.lazy.compactMap { slots[$0] }.first
    }

    /// The first record of `group`, in order.
    func first(in group: Group) -> Record? {
        slotsByGroup[group]?.lazy.compactMap { slots[$0] }.first
    }

    /// The records of `group`, in order.
    func all(in group: Group) -> [Record] {
        (slotsByGroup[group] ?? []).compactMap { slots[$0] }
    }

    /// Removes every record of `record`'s identity and appends `record`.
    mutating func replace(with record: Record) {
        for slot in slotsByIdentity.removeValue(forKey: identity(record)) ?? [] { slots[slot] = nil }
        append(record)
    }

    /// Every record, in order.
    var records: [Record] { slots.compactMap { $0 } }

    private mutating func append(_ record: Record) {
        slotsByIdentity[identity(record), default: []].append(slots.count)
        slotsByGroup[group(record), default: []].append(slots.count)
        slots.append(record)
    }
}
