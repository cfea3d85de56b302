import LinkCore
import Testing

@testable import EdgeServer

/// The per-loop QR code cache with no sockets: a link is drawn once and served from the cache after, a new table
/// or a reused slot draws again, and what the ring overwrote is never served.
@Suite struct QRCodeCacheTests {
    static let publicURL = Array("https://links.example.com".utf8)

    static func target(_ reference: UInt32, code: String, publicKey: String = "pk_acme") -> LinkTarget {
        LinkTarget(
            code: CodeRecord(reference: reference, partnerID: "part_sam", code: code, active: true),
            partner: PartnerRecord(id: "part_sam", programID: "prg_acme", name: "Sam", status: "active"),
            program: ProgramSettings(
                record: ProgramRecord(id: "prg_acme", organizationID: "org_acme", name: "Acme Pro"),
                organizationName: "Acme"),
            publicKey: publicKey)
    }

    /// The SVG a fresh cache draws for the link: what a cached copy must equal.
    static func fresh(_ target: LinkTarget, publicURL: [UInt8] = publicURL) -> [UInt8]? {
        let cache = QRCodeCache(publicURL: publicURL)
        return withExtendedLifetime(cache) { cache.svg(for: target, generation: 1).map(Array.init) }
    }

    @Test func aLinkIsDrawnOnceAndServedFromTheCache() throws {
        let cache = QRCodeCache(publicURL: Self.publicURL)
        let sam = Self.target(1, code: "SAM20")
        let first = try #require(cache.svg(for: sam, generation: 1).map(Array.init))
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("<svg "))
        for _ in 0..<100 { #expect(cache.svg(for: sam, generation: 1).map(Array.init) == first) }
        #expect(cache.renderCount == 1)
        let lee = Self.target(2, code: "LEE")
        let other = try #require(cache.svg(for: lee, generation: 1).map(Array.init))
        #expect(other != first)
        #expect(cache.svg(for: sam, generation: 1).map(Array.init) == first)
        #expect(cache.renderCount == 2)
    }

    /// A new link table may give a reference another URL (the code's spelling, the organization's key): its slot
    /// from an older table is a miss.
    @Test func aNewTableDrawsAgain() throws {
        let cache = QRCodeCache(publicURL: Self.publicURL)
        let before = try #require(cache.svg(for: Self.target(1, code: "sam20"), generation: 1).map(Array.init))
        let respelled = Self.target(1, code: "SAM20")
        #expect(cache.svg(for: respelled, generation: 1).map(Array.init) == before, "same table: the cached code")
        let after = try #require(cache.svg(for: respelled, generation: 2).map(Array.init))
        #expect(after != before)
        #expect(after == Self.fresh(respelled))
        let newKey = try #require(cache.svg(for: Self.target(1, code: "SAM20", publicKey: "pk_new"), generation: 3))
        #expect(Array(newKey) != after)
        #expect(cache.renderCount == 3)
    }

    @Test func anotherPublicURLGivesAnotherCode() throws {
        let sam = Self.target(1, code: "SAM20")
        let one = try #require(Self.fresh(sam))
        let other = try #require(Self.fresh(sam, publicURL: Array("https://go.example.org".utf8)))
        #expect(one != other)
    }

    /// Two references on one slot take turns; each is drawn again when it comes back, and is right.
    @Test func collidingReferencesEvictEachOther() throws {
        let cache = QRCodeCache(publicURL: Self.publicURL, slotCount: 4)
        let one = Self.target(1, code: "ONE")
        let five = Self.target(5, code: "FIVE")
        for round in 1...3 {
            #expect(cache.svg(for: one, generation: 1).map(Array.init) == Self.fresh(one))
            #expect(cache.svg(for: five, generation: 1).map(Array.init) == Self.fresh(five))
            #expect(cache.renderCount == 2 * round)
        }
    }

    /// A ring of two SVGs' room: older codes are overwritten by newer ones and drawn again, never served damaged.
    @Test func whatTheRingOverwroteIsDrawnAgain() throws {
        let cache = QRCodeCache(publicURL: Self.publicURL, arenaCapacity: 2 * QRCodeCache.maximumSVGLength)
        let targets = (1...40).map { Self.target(UInt32($0), code: "CODE\($0)") }
        let expected = targets.map { Self.fresh($0) }
        for round in 0..<3 {
            for (target, svg) in zip(targets, expected) {
                #expect(cache.svg(for: target, generation: 1).map(Array.init) == svg, "round \(round)")
            }
        }
        // Right after drawing, the newest code is still there: a hit.
        let count = cache.renderCount
        #expect(cache.svg(for: targets[39], generation: 1).map(Array.init) == expected[39])
        #expect(cache.renderCount == count)
        #expect(count > 40, "the ring holds only a few of 40 codes, so later rounds draw again")
    }

    /// A URL too long for the page's QR code: none, and not drawn again per tap.
    @Test func aTooLongURLHasNoCodeAndIsNotDrawnAgain() throws {
        // https://links.example.com/a/kkk…/SAM20: 374 bytes, version 15, about 7 KB of SVG.
        let longKey = String(repeating: "k", count: 340)
        let cache = QRCodeCache(publicURL: Self.publicURL)
        let long = Self.target(1, code: "SAM20", publicKey: longKey)
        for _ in 0..<10 { #expect(cache.svg(for: long, generation: 1) == nil) }
        #expect(cache.renderCount == 1, "drawn once: the SVG was larger than \(QRCodeCache.maximumSVGLength) bytes")
        let tooLong = Self.target(
            2, code: "SAM20", publicKey: String(repeating: "k", count: QRCodeCache.maximumURLLength))
        #expect(cache.svg(for: tooLong, generation: 1) == nil)
        #expect(cache.renderCount == 1, "a URL over \(QRCodeCache.maximumURLLength) bytes is not encoded at all")
        // Codes drawn after a refused one are whole.
        let sam = Self.target(3, code: "SAM20")
        #expect(cache.svg(for: sam, generation: 1).map(Array.init) == Self.fresh(sam))
    }
}
