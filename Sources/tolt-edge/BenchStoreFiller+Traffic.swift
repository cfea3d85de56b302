import EdgeStore
import LinkCore

extension BenchStoreFiller {
    static let userAgents = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.0.40.92",
    ]
    static let platforms: [Platform] = [.ios, .android, .desktop, .ios]
    static let referers = ["", "https://www.instagram.com/", "https://t.co/", "https://www.youtube.com/"]
    static let countries: [String?] = ["US", "GB", "DE", "FR", "BR", "IN", "JP", nil]

    /// A partner index, skewed so that a few partners bring most clicks and customers, as in life.
    static func partnerIndex(_ random: inout BenchRandom, count: Int) -> Int {
        let draw = random.unit()
        return min(count - 1, Int(draw * draw * Double(count)))
    }

    /// `plan.clicks` clicks evenly over the plan's days in time order (so ids ascend and inserts append), every
    /// tenth followed by a repeat tap two seconds later, ingested ``batchSize`` at a time.
    func fillClicks(
        _ partners: [Partner], _ random: inout BenchRandom, _ filled: inout Filled,
        _ recentClicks: inout [[(id: String, at: Int64)]], progress: (String) -> Void
    ) throws {
        let span = Int64(plan.days) * 86_400_000
        let start = plan.end - span
        let step = plan.clicks > 0 ? max(1, span / Int64(plan.clicks)) : span
        var clicks: [ClickRecord] = []
        var repeats: [ClickRecord] = []
        clicks.reserveCapacity(Self.batchSize)
        for index in 0..<plan.clicks {
            let at = min(plan.end - 3_000, start + Int64(index) * span / Int64(plan.clicks) + random.below(step))
            let partnerIndex = Self.partnerIndex(&random, count: partners.count)
            let partner = partners[partnerIndex]
            let variant = Int(random.below(Int64(Self.userAgents.count)))
            let click = ClickRecord(
                id: Self.clickID(at: at, reference: partner.reference, &random), createdAt: at,
                organizationID: Self.organizationID, programID: partner.programID, partnerID: partner.id,
                code: partner.code, platform: Self.platforms[variant], userAgent: Self.userAgents[variant],
                referer: Self.referers[Int(random.below(Int64(Self.referers.count)))],
                ip: "198.51.100.\(random.below(256))",
                country: Self.countries[Int(random.below(Int64(Self.countries.count)))])
            clicks.append(click)
            if index % 10 == 9 {
                var tap = click
                tap.createdAt = at + 2_000
                repeats.append(tap)
            }
            if recentClicks[partnerIndex].count < 32 {
                recentClicks[partnerIndex].append((click.id, at))
            } else {
                recentClicks[partnerIndex][Int(random.below(32))] = (click.id, at)
            }
            if clicks.count == Self.batchSize || index == plan.clicks - 1 {
                try store.ingest(
                    clicks, repeats: repeats, checkpoint: JournalCheckpoint(segment: "bench-fill", offset: Int64(index))
                )
                filled.clicks += clicks.count
                filled.taps += clicks.count + repeats.count
                clicks.removeAll(keepingCapacity: true)
                repeats.removeAll(keepingCapacity: true)
                progress("bench-fill: \(filled.clicks) clicks\n")
            }
        }
        // No journal segment of that name exists: leave no checkpoint behind.
        try store.forgetJournalSegment("bench-fill")
    }

    /// A click id shaped as the link path mints it (time, code reference, random), with a random tag in place of
    /// the signature: the store never checks tags, and a bench store's clicks are never claimed by id.
    static func clickID(at time: Int64, reference: UInt32, _ random: inout BenchRandom) -> String {
        var raw = [UInt8](repeating: 0, count: ClickID.byteCount)
        var text = [UInt8](repeating: 0, count: ClickID.encodedLength)
        let tag = random.next()
        raw.withUnsafeMutableBytes { bytes in
            ClickID.writeSignedBytes(
                timestampMilliseconds: UInt64(time), codeReference: reference, random: random.next(),
                into: bytes.baseAddress!)
            for index in 0..<ClickID.tagByteCount {
                bytes[ClickID.signedByteCount + index] = UInt8(truncatingIfNeeded: tag >> UInt64(index % 8 * 8))
            }
        }
        raw.withUnsafeBytes { input in text.withUnsafeMutableBytes { ClickID.encode(input, into: $0.baseAddress!) } }
        return String(decoding: text, as: UTF8.self)
    }
}
