/// One shard of ``RateLimiter``: the clients it tracks, at most `capacity` of them, with the times of each one's
/// last `limit` allowed requests. Not thread-safe; the limiter holds it under a lock.
///
/// Every operation is O(1) (amortised): a dictionary finds the client, and two intrusive lists order the rest.
///
/// - `open`: clients with room left in their window, least recently seen first. When the table is full, a new
///   client takes the place of the first of them: the oldest idle client.
/// - `limited`: clients that used up their window, in the order they did so. One of them leaves the table only once
///   its window has passed, so a flood of fresh addresses cannot free a client that is being limited.
///
/// A full table whose every client is limited refuses a new client (fails closed) rather than serving it untracked:
/// filling it takes `capacity × limit` allowed requests inside one window.
struct RateLimitTable {
    let limit: Int
    let capacity: Int
    let window: Double
    let windowMilliseconds: Int32

    private struct Entry {
        var network: ClientNetwork
        /// When the client's last allowed request came, in seconds. Once a window has passed since, its times
        /// are all stale; until then, they lie within two windows of now, so 32-bit milliseconds cannot wrap.
        var lastAllowed: Double
        var previous: Int32
        var next: Int32
        /// Where its oldest time is in its slice of `times`, and how many of its times are in use.
        var start: UInt16
        var count: UInt16
        var isLimited: Bool
    }

    /// A doubly linked list threaded through `entries` by index; -1 ends it.
    private struct List {
        var head: Int32 = -1
        var tail: Int32 = -1
    }

    private var index: [ClientNetwork: Int32] = [:]
    private var entries: [Entry] = []
    /// `limit` times per entry, in milliseconds (wrapping), oldest first from the entry's `start`.
    private var times: [UInt32] = []
    private var open = List()
    private var limited = List()

    /// How many limited clients a new client may look past for one whose window has passed.
    private static let limitedScan = 8

    init(limit: Int, window: Double, capacity: Int) {
        precondition(limit >= 1 && limit <= Int(UInt16.max) && capacity >= 1 && capacity < Int(Int32.max))
        precondition(window > 0 && window < 86_400 * 12, "two windows must fit in 31 bits of milliseconds")
        self.limit = limit
        self.capacity = capacity
        self.window = window
        windowMilliseconds = Int32(window * 1000)
    }

    /// The clients tracked now.
    var count: Int { index.count }

    /// Counts a request from `network` at `now` (seconds): `nil` when it is allowed, else the seconds to wait.
    mutating func acquire(_ network: ClientNetwork, now: Double) -> Int? {
        let milliseconds = Self.milliseconds(now)
        guard let found = index[network] else { return admit(network, now: now, at: milliseconds) }
        let entry = Int(found)
        forgetExpired(entry, now: now, at: milliseconds)
        if Int(entries[entry].count) >= limit { return wait(entry, at: milliseconds) }
        append(milliseconds, to: entry)
        entries[entry].lastAllowed = max(entries[entry].lastAllowed, now)
        unlink(entry)
        linkLast(entry, limited: Int(entries[entry].count) >= limit)
        return nil
    }

    /// The seconds `network` must wait at `now` before a request of its would be allowed, without counting one:
    /// `nil` when it has room. For a limit on failures (``RateLimiter/wait(_:now:)``): a request is let through while
    /// its client has room, and ``acquire(_:now:)`` counts it only once it failed. A client not tracked has room,
    /// unless the table is full of limited clients: then its failure could not be counted, and it waits as a new
    /// client's ``acquire(_:now:)`` would, so the limit fails closed for failures too (else, with the table full,
    /// every fresh address would guess without limit).
    func wait(_ network: ClientNetwork, now: Double) -> Int? {
        guard let found = index[network] else {
            guard entries.count >= capacity, case .refused(let wait) = reclaim(now: now, at: Self.milliseconds(now))
            else { return nil }
            return wait
        }
        let entry = Int(found)
        // Its times are ordered oldest first: all of them are inside the window when the oldest is.
        guard Int(entries[entry].count) >= limit, now - entries[entry].lastAllowed < window else { return nil }
        let wait = wait(entry, at: Self.milliseconds(now))
        return wait > 0 ? wait : nil
    }

    /// A client not in the table: a new entry, in an unused slot, the oldest idle client's, or a limited client's
    /// whose window has passed; or, when every client is limited, a refusal.
    private mutating func admit(_ network: ClientNetwork, now: Double, at milliseconds: UInt32) -> Int? {
        let entry: Int
        if entries.count < capacity {
            entry = entries.count
            entries.append(
                Entry(network: network, lastAllowed: now, previous: -1, next: -1, start: 0, count: 0, isLimited: false))
            times.append(contentsOf: repeatElement(0, count: limit))
        } else {
            switch reclaim(now: now, at: milliseconds) {
            case .entry(let reclaimed): entry = reclaimed
            case .refused(let wait): return wait
            }
            unlink(entry)
            index[entries[entry].network] = nil
            entries[entry] = Entry(
                network: network, lastAllowed: now, previous: -1, next: -1, start: 0, count: 0, isLimited: false)
        }
        index[network] = Int32(entry)
        append(milliseconds, to: entry)
        linkLast(entry, limited: limit == 1)
        return nil
    }

    private enum Reclaimed {
        case entry(Int)
        /// Every client is limited: the new one waits as long as the first of them to be freed.
        case refused(wait: Int)
    }

    /// The entry a new client may take: the least recently seen open one, else a limited one whose window passed.
    private func reclaim(now: Double, at milliseconds: UInt32) -> Reclaimed {
        if open.head >= 0 { return .entry(Int(open.head)) }
        var shortest = Int.max
        var candidate = limited.head
        var scanned = 0
        while candidate >= 0 && scanned < Self.limitedScan {
            let entry = Int(candidate)
            if now - entries[entry].lastAllowed >= window { return .entry(entry) }
            let wait = self.wait(entry, at: milliseconds)
            if wait <= 0 { return .entry(entry) }
            shortest = min(shortest, wait)
            candidate = entries[entry].next
            scanned += 1
        }
        return .refused(wait: max(1, shortest))
    }

    /// Drops the times that have left the window.
    private mutating func forgetExpired(_ entry: Int, now: Double, at milliseconds: UInt32) {
        if now - entries[entry].lastAllowed >= window {
            entries[entry].count = 0
            return
        }
        let base = entry * limit
        while entries[entry].count > 0 {
            guard Self.age(of: times[base + Int(entries[entry].start)], at: milliseconds) >= windowMilliseconds
            else { break }
            entries[entry].start = UInt16((Int(entries[entry].start) + 1) % limit)
            entries[entry].count -= 1
        }
    }

    /// The seconds until the oldest of the entry's times leaves the window (at least 1 while it is inside; 0 or
    /// less when it has left).
    private func wait(_ entry: Int, at milliseconds: UInt32) -> Int {
        let age = max(0, Self.age(of: times[entry * limit + Int(entries[entry].start)], at: milliseconds))
        guard age < windowMilliseconds else { return 0 }
        return max(1, Int((windowMilliseconds - age + 999) / 1000))
    }

    private mutating func append(_ milliseconds: UInt32, to entry: Int) {
        let slot = (Int(entries[entry].start) + Int(entries[entry].count)) % limit
        times[entry * limit + slot] = milliseconds
        entries[entry].count += 1
    }

    private mutating func unlink(_ entry: Int) {
        let previous = entries[entry].previous
        let next = entries[entry].next
        let isLimited = entries[entry].isLimited
        if previous >= 0 {
            entries[Int(previous)].next = next
        } else if isLimited {
            limited.head = next
        } else {
            open.head = next
        }
        if next >= 0 {
            entries[Int(next)].previous = previous
        } else if isLimited {
            limited.tail = previous
        } else {
            open.tail = previous
        }
        entries[entry].previous = -1
        entries[entry].next = -1
    }

    /// Links a detached entry at the end of the open or the limited list.
    private mutating func linkLast(_ entry: Int, limited toLimited: Bool) {
        let tail = toLimited ? limited.tail : open.tail
        entries[entry].isLimited = toLimited
        entries[entry].previous = tail
        entries[entry].next = -1
        if tail >= 0 {
            entries[Int(tail)].next = Int32(entry)
        } else if toLimited {
            limited.head = Int32(entry)
        } else {
            open.head = Int32(entry)
        }
        if toLimited { limited.tail = Int32(entry) } else { open.tail = Int32(entry) }
    }

    /// Seconds as wrapping milliseconds: only differences within two windows are ever taken.
    private static func milliseconds(_ seconds: Double) -> UInt32 {
        UInt32(truncatingIfNeeded: Int64((seconds * 1000).rounded(.down)))
    }

    /// How long ago `time` was; negative (taken as "just now") when a worker that read the clock a little earlier
    /// took the lock after one that read it later.
    private static func age(of time: UInt32, at milliseconds: UInt32) -> Int32 {
        Int32(bitPattern: milliseconds &- time)
    }
}
