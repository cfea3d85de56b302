import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The start-up line names the address the server is bound to (`0.0.0.0` by default, so every network reaches it),
/// not the `localhost` of the URL a browser on this machine uses; and a public URL of this machine, whose QR codes no
/// phone can open, is pointed out.
@Suite struct ServeStartupLineTests {
    @Test func aWildcardHostIsNamedAsAllAddressesAndALocalPublicURLIsPointedOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(
            [
                "serve", "--host", "0.0.0.0", "--port", "0", "--threads", "1", "--data", directory.path + "/data",
                "--public-url", "http://localhost:8080",
            ], outputIn: directory.path, label: "wildcard")
        defer {
            child.signal(SIGTERM)
            _ = child.waitForExit(within: 10)
        }
        #expect(try eventually(within: 20) { child.stdout.contains("listening on") })
        let line = try #require(child.stdout.split(separator: "\n").first { $0.contains("listening on") })
        #expect(line.hasPrefix("tolt-edge listening on 0.0.0.0:"), "\(line)")
        #expect(line.contains(", all addresses (http://localhost:"), "\(line)")
        #expect(line.contains(" from this machine; 1 thread, data in "), "\(line)")
        // The note comes before the line (a check that it is absent, below, reads the output the line ends).
        #expect(
            child.stdout.contains(
                "note: the public URL http://localhost:8080 names this machine, which no phone can open"),
            "\(child.stdout)")
    }

    @Test func aHostIsNamedAsItIsAndAPublicAddressGetsNoNote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "host",
            arguments: ["--public-url", "https://links.example.com"])
        defer { server.stop() }
        #expect(server.child.stdout.contains("tolt-edge listening on http://127.0.0.1:\(server.port) (2 threads, "))
        #expect(!server.child.stdout.contains("note: the public URL"))
    }

    /// A store without an organization answers every link, claim and key as unknown: the start-up says so, once, and
    /// how to import one; a store with one gets no such note.
    @Test func aStoreWithoutAnOrganizationIsPointedOut() throws {
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        let bare = try ChildServer(dataDirectory: empty.path + "/data", outputIn: empty.path, label: "no-org")
        defer { bare.stop() }
        let notes = bare.child.stdout.split(separator: "\n").filter { $0.contains("holds no organization") }
        #expect(notes.count == 1, "\(bare.child.stdout)")
        #expect(notes.first?.contains("tolt-edge import FILE") == true)
        let data = try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
        defer { data.remove() }
        let configured = try ChildServer(dataDirectory: data.path, outputIn: data.path, label: "org")
        defer { configured.stop() }
        #expect(!configured.child.stdout.contains("holds no organization"), "\(configured.child.stdout)")
    }
}
