import EdgeStore
import LinkCore
import TestSupport
import Testing

/// An import of tens of thousands of partners merges as a small one does. The merge once looked every partner and
/// code up by scanning all of them, and export filtered every list for each parent: 20,000 partners took 6.7 s to
/// import, 50,000 took 52 s (`bench/import.sh` times it; this test checks only the results, not the time).
@Suite struct ConfigManyPartnersTests {
    static let perProgram = 10_000

    /// One organization, two programs of `perProgram` partners each, whose names repeat across the programs
    /// (`Partner 7` is in both); each partner has the code `<program letter><index>`, and every hundredth one a
    /// second code. With `ids: false`, partners are given by name only; `lowercasedEvery` writes every n-th first
    /// code in lower case.
    static func document(ids: Bool = true, lowercasedEvery: Int? = nil) -> String {
        var json =
            #"{"organizations":[{"id":"org_big","name":"Big","public_key":"pk_big","secret_key":"sk_big_secret","#
        json += #""programs":["#
        for (programIndex, letter) in ["A", "B"].enumerated() {
            if programIndex > 0 { json += "," }
            json += #"{"id":"prg_\#(letter)","name":"Program \#(letter)","partners":["#
            for index in 0..<perProgram {
                if index > 0 { json += ",\n" }
                var code = "\(letter)\(index)"
                if let every = lowercasedEvery, index % every == 0 { code = code.lowercased() }
                json += "{"
                if ids { json += #""id":"part_\#(letter)\#(index)","# }
                json += #""name":"Partner \#(index)","status":"active","codes":[{"code":"\#(code)","active":true}"#
                if index % 100 == 0 { json += #",{"code":"\#(letter)\#(index)X","active":false}"# }
                json += "]}"
            }
            json += "]}"
        }
        return json + "]}]}"
    }

    @Test func twentyThousandPartnersImportReimportAndExportAsAFewDo() throws {
        let fixture = try StoreFixture(.sqlite)
        defer { fixture.remove() }
        let partners = 2 * Self.perProgram
        let codes = partners + partners / 100
        let first = try fixture.importJSON(Self.document())
        #expect(first.changes.count == 1 + 2 + partners + codes)
        #expect(first.warnings.isEmpty, "\(first.warnings.prefix(3))")
        let records = try fixture.store.configRecords()
        #expect(records.partners.count == partners && records.codes.count == codes)

        // The same file again, and the same partners by name only: each is found in its own program (the names
        // repeat across the two), so nothing changes.
        #expect(try fixture.importJSON(Self.document()).reportsNothing)
        #expect(try fixture.importJSON(Self.document(ids: false)).reportsNothing)
        #expect(try fixture.store.configRecords() == records)

        // A code written in another case is the stored code, respelt: updated, not added.
        let respelt = try fixture.importJSON(Self.document(ids: false, lowercasedEvery: 1_000))
        #expect(respelt.changes.count == 2 * Self.perProgram / 1_000)
        #expect(respelt.changes.contains("updated code b3000 of part_B3000"))
        let after = try fixture.store.configRecords()
        #expect(after.partners == records.partners && after.codes.count == codes)
        #expect(after.codes.contains { $0.partnerID == "part_A0" && $0.code == "a0" })

        // The export lists every partner under its own program, each with its codes, and rebuilds the same
        // configuration in an empty store.
        let exported = try ConfigImporter.exportDocument(from: fixture.store)
        let document = try ConfigDocument(json: exported)
        let programs = try #require(document.organizations.first?.programs)
        #expect(programs.map(\.id) == ["prg_A", "prg_B"])
        #expect(programs.map(\.partners.count) == [Self.perProgram, Self.perProgram])
        #expect(programs[1].partners.allSatisfy { $0.id?.hasPrefix("part_B") == true })
        #expect(programs[1].partners.first { $0.id == "part_B100" }?.codes.map(\.code) == ["B100", "B100X"])
        let copy = try StoreFixture(.sqlite)
        defer { copy.remove() }
        try copy.importJSON(String(decoding: exported, as: UTF8.self))
        #expect(try copy.store.configRecords().comparable == (try fixture.store.configRecords().comparable))
        #expect(try ConfigImporter.exportDocument(from: copy.store) == exported)
    }
}
