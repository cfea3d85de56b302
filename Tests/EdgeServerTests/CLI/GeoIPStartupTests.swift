import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge serve --geoip FILE` as a child process: a file that is not a MaxMind DB stops the start with the file
/// and libmaxminddb's reason and a non-zero exit, never a crash; a good one starts. (Tests run as root, for whom a
/// `chmod 000` file stays readable: a missing file and a directory stand for files that cannot be read.)
@Suite struct GeoIPStartupTests {
    static func serve(_ arguments: [String], in directory: TemporaryDirectory) throws -> (
        status: Int32, signaled: Bool, stdout: String, stderr: String
    ) {
        let child = try ChildProcess(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.path + "/data"] + arguments,
            outputIn: directory.path, label: "serve-\(UInt32.random(in: 0...UInt32.max))")
        guard let exit = child.waitForExit(within: 30) else {
            child.signal(SIGKILL)
            _ = child.waitForExit(within: 10)
            throw TestError("serve \(arguments) kept running: \(child.stdout)")
        }
        return (exit.status, exit.signaled, child.stdout, child.stderr)
    }

    @Test func aFileThatCannotBeOpenedAsAMaxMindDBStopsTheStart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SystemRandomNumberGenerator()
        let noise = directory.path + "/random.mmdb"
        #expect(
            FileManager.default.createFile(
                atPath: noise, contents: Data((0..<20_000).map { _ in random.next() as UInt8 })))
        let empty = directory.path + "/empty.mmdb"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let cases = [
            (directory.path + "/missing.mmdb", "No such file or directory"),
            (directory.path, "An attempt to read data from the MaxMind DB file failed"),
            (noise, "invalid metadata"),
            (empty, "An attempt to read data from the MaxMind DB file failed"),
            (try TestFiles.fixture("geoip/GeoIP2-Country-Test.source.json"), "invalid metadata"),
        ]
        for (file, reason) in cases {
            let result = try Self.serve(["--geoip", file], in: directory)
            #expect(!result.signaled, "\(file): no crash")
            #expect(result.status == 1, "\(file)")
            #expect(result.stderr.contains("--geoip \(file): cannot open it as a MaxMind DB: "), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(file): \(result.stderr)")
            #expect(!result.stdout.contains("listening"))
            #expect(access(directory.path + "/data", F_OK) != 0, "nothing was created before the check")
        }
    }

    @Test func aBadIPStorageModeIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try Self.serve(["--ip-storage", "partial"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--ip-storage must be full, anonymized or none"))
    }

    @Test(arguments: [
        "GeoLite2-Country-Test.mmdb", "GeoIP2-City-Test.mmdb", "MaxMind-DB-test-broken-search-tree-24.mmdb",
        "MaxMind-DB-test-broken-pointers-24.mmdb",
    ])
    func aMaxMindDBStartsTheServer(database: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try TestFiles.fixture("geoip/" + database)
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "geoip",
            arguments: ["--geoip", file])
        defer { server.stop() }
        #expect(server.child.stderr.contains("geoip: "), "\(server.child.stderr)")
        #expect(server.child.stderr.contains(file))
        #expect(try server.client().request("GET", "/a/pk_none/X").status == 404)
    }
}
