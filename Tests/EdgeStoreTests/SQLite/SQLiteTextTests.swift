import LinkCore
import TestSupport
import Testing

@testable import EdgeStore

/// Text goes into SQLite whole, by its byte count: a NUL inside does not cut it short.
@Suite struct SQLiteTextTests {
    @Test func idsThatDifferAfterANULStayTwoIDs() throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.acme)
        defer { fixture.remove() }
        for (index, user) in ["alice\u{0}x", "alice\u{0}y", "alice"].enumerated() {
            let result = try fixture.store.claim(
                CustomerRecord(
                    id: "cust_\(index)", organizationID: "org_acme", customerID: user, partnerID: "part_sam",
                    programID: "prg_acme", code: "SAM20", clickID: nil, status: "lead", claimedAt: 1, firstSeenAt: nil))
            #expect(result.created, "\(index)")
            #expect(result.customer.customerID == user)
        }
        let stored = try fixture.store.customers(CustomerQuery(organizationID: "org_acme", limit: 10)).items
        #expect(Set(stored.map(\.customerID)) == ["alice\u{0}x", "alice\u{0}y", "alice"])
    }
}
