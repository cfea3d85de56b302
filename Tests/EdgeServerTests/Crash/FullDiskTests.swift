import Foundation
import TestSupport
import Testing

/// The real `tolt-edge serve` with its journal on a volume that fills up (a small tmpfs mounted on
/// `<data>/journal`): taps it cannot record get 503, the journal directory gets no file per failed write, the
/// failure is logged about once a second rather than per tap, and once there is room again taps are answered as
/// before; the store ends up with exactly the clicks that were answered.
@Suite(.serialized) struct FullDiskTests {
    @Test(.enabled(if: SmallVolume.isMountable, JournalVolume.mountingNeeded))
    func aServerOnAFullDiskRefusesTapsWithoutAFilePerTapAndRecovers() throws {
        let data = try CrashRecoveryTests.dataDirectory()
        defer { data.remove() }
        let directory = data.path
        let volume = try SmallVolume(bytes: 256 << 10, at: directory + "/journal")
        defer { volume.remove() }
        // Repeat taps off: every answered tap must be a stored click of its own.
        let server = try ChildServer(
            dataDirectory: directory, outputIn: directory, label: "full", arguments: ["--dedupe-window", "0"])
        defer { server.kill() }
        let client = server.client()
        func tap() throws -> HTTPResponse {
            try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        }
        var answered: [String] = []
        for _ in 0..<10 {
            let response = try tap()
            #expect(response.status == 302)
            answered.append(try #require(LinkResponses.clickID(in: response)))
        }

        try volume.fill()
        var refused = 0
        var mostFiles = 0
        let start = TestClock.now()
        while TestClock.now() - start < 3 {
            let response = try tap()
            if response.status == 503 {
                refused += 1
                #expect(response.text.contains("\"unavailable\"") && response.header("location") == nil)
            } else {
                #expect(response.status == 302)
                answered.append(try #require(LinkResponses.clickID(in: response)))
            }
            mostFiles = max(mostFiles, JournalVolume.segments(in: volume.path).count)
        }
        // The ingester deletes each segment it has consumed, which frees a page now and then: a few taps in a
        // row are answered again, then refused until the next one.
        #expect(refused > 200, "the full disk refused taps: \(refused) refused, \(answered.count) answered")
        #expect(mostFiles <= 2, "a file per failed write? \(mostFiles) segment files at most")
        let reports = server.child.stderr.split(separator: "\n").filter { $0.contains("could not journal") }
        #expect(reports.count >= 1 && reports.count <= 5, "about one line a second: \(reports)")

        volume.free()
        var again = false
        let recovered = eventually(within: 3) {
            guard let response = try? tap(), response.status == 302, let id = LinkResponses.clickID(in: response)
            else { return false }
            answered.append(id)
            again = true
            return true
        }
        #expect(recovered && again, "taps are answered once there is room: \(server.child.stderr)")
        for _ in 0..<20 {
            let response = try tap()
            #expect(response.status == 302)
            answered.append(try #require(LinkResponses.clickID(in: response)))
        }

        #expect(server.stop()?.status == 0, "\(server.child.stderr)")
        let stored = try CrashRecoveryTests.storedIDs(directory)
        #expect(stored.count == answered.count && Set(stored) == Set(answered), "no refused tap became a click")
        #expect(JournalVolume.segments(in: volume.path).isEmpty, "the journal is drained")
        withExtendedLifetime(client) {}
    }
}

/// What the full-disk tests share.
enum JournalVolume {
    static let mountingNeeded: Comment =
        "mounting a tmpfs needs root (CAP_SYS_ADMIN): run the tests as root, as CI does"

    /// The segment files in a journal directory.
    static func segments(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".journal") }
    }
}
