import Foundation
import LinkCore
import TestSupport
import Testing

/// `tolt-edge import FILE` as a person runs it: a file saved by Windows Notepad (a UTF-8 byte-order mark first) is
/// read, and what an error quotes of the file reaches the terminal bounded and without control characters.
@Suite struct ImportFileTests {
    static let document = """
        {"organizations":[{"id":"org_bom","name":"Bom","public_key":"pk_bom","secret_key":"sk_bom_secret",
          "programs":[{"id":"prg_bom","name":"Bom","partners":[{"id":"part_bom","name":"Sam",
            "codes":[{"code":"BOM20"}]}]}]}]}
        """

    /// Runs `tolt-edge import` on a file holding `bytes`, with a data directory of its own.
    static func importing(_ bytes: [UInt8]) throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/config.json"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return try ChildProcess.run(
            ["import", file, "--data", directory.path + "/data"], outputIn: directory.path)
    }

    /// Was refused with "unexpected character at byte 0".
    @Test func aFileStartingWithAByteOrderMarkIsImported() throws {
        let result = try Self.importing([0xEF, 0xBB, 0xBF] + Array(Self.document.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created code BOM20 of part_bom"), "\(result.stdout)")
        // One mark, at the start: a second one is no JSON.
        let twice = try Self.importing([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(Self.document.utf8))
        #expect(twice.status == 1 && twice.stderr.contains("not valid JSON"), "\(twice.stderr)")
    }

    /// An organization without a RevenueCat authorization imported silently, and its webhook then refused every
    /// event: the import says so now, for each organization the file names that has none stored, and not once
    /// one is set.
    @Test func anOrganizationWithoutARevenueCatAuthorizationIsWarnedAbout() throws {
        let without = try Self.importing(Array(Self.document.utf8))
        #expect(without.status == 0, "\(without.stderr)")
        #expect(
            without.stderr.contains("warning: organization org_bom has no RevenueCat authorization"),
            "\(without.stderr)")
        let with = try Self.importing(
            Array(
                Self.document.replacingOccurrences(
                    of: #""secret_key":"sk_bom_secret","#,
                    with: #""secret_key":"sk_bom_secret","revenuecat":{"authorization":"Bearer whsec_bom_1234"},"#
                ).utf8))
        #expect(with.status == 0, "\(with.stderr)")
        #expect(!with.stderr.contains("RevenueCat"), "\(with.stderr)")
    }

    /// An unknown member of 1 MB was echoed whole (1,000,086 bytes of standard error); one holding ESC, CR and LF
    /// reached the terminal as those bytes. Now the error quotes its first 100 scalars with "…", control characters
    /// written as `\u001B`.
    @Test func anUnknownMemberIsQuotedCutAndWithoutControlCharacters() throws {
        let long = String(repeating: "k", count: 1_000_000)
        let result = try Self.importing(Array(#"{"organizations":[],"\#(long)":1}"#.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.utf8.count < 400, "\(result.stderr.utf8.count) bytes")
        #expect(
            result.stderr.contains(String(repeating: "k", count: 100) + "…: is not a known field"), "\(result.stderr)")

        let hostile = try Self.importing(
            Array(#"{"organizations":[{"id":"org_x","\u001b[31mred\r\nfake: ok":1}]}"#.utf8))
        #expect(hostile.status == 1)
        let controls = hostile.stderr.unicodeScalars.filter { QuotedText.isControl($0) && $0 != "\n" }
        #expect(controls.isEmpty, "\(hostile.stderr.debugDescription)")
        #expect(
            hostile.stderr.contains(#"organizations[0].\u001B[31mred\u000D\u000Afake: ok: is not a known field"#),
            "\(hostile.stderr.debugDescription)")
        #expect(hostile.stderr.split(separator: "\n").count == 2, "the message, then 'nothing was imported'")
    }

    /// `--store "$PG_URL"` with the variable unset wrote to a new SQLite store in `./data` and reported success; an
    /// empty `--data` said only "cannot create ". Both are usage errors now, for every command that opens a store.
    @Test func anEmptyStoreOrDataOptionIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/config.json"
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: file))
        for (arguments, option) in [
            (["import", file, "--store", ""], "--store"), (["import", file, "--data", ""], "--data"),
            (["export", "--store", ""], "--store"), (["prune", "--before", "2026-01-01", "--store", ""], "--store"),
            (["clicks", "--data", ""], "--data"), (["migrate", "--store="], "--store"),
        ] {
            let result = try ChildProcess.run(arguments, outputIn: directory.path)
            #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("tolt-edge: \(option) is empty: give it a value, or leave it out"),
                "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/data"), "nothing was created")
    }

    /// `import -` opened `/dev/stdin`, which opens the file or pipe behind descriptor 0 anew, with the permissions of
    /// the user running: `sudo -u tolt-edge tolt-edge import - < acme.json` (the README's way to import a file that
    /// user cannot read) got "cannot read -: Permission denied". Standard input is read from descriptor 0 now. A socket
    /// as standard input shows it without a second user: opening `/dev/stdin` on one fails (ENXIO).
    @Test func standardInputIsReadFromItsDescriptor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        let bytes = Array(Self.document.utf8)
        let written = bytes.withUnsafeBytes { write(ends[0], $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        close(ends[0])
        let result = try ChildProcess.run(
            ["import", "-", "--data", directory.path + "/data"], outputIn: directory.path, standardInput: ends[1])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("created code BOM20 of part_bom"), "\(result.stdout)")
    }

    /// `prune --data /var/lib/tolt-edge` in a shell whose `TOLT_STORE` was set pruned the PostgreSQL store, saying
    /// only "deleted N clicks". A command other than `serve` (whose `--data` holds a node's journal beside
    /// PostgreSQL) given `--data` while `TOLT_STORE` names another store is a usage error now, before any store is
    /// opened; `--store` still wins over the variable.
    @Test func dataBesideTOLTSTOREIsAUsageError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/config.json"
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: file))
        let elsewhere = ["TOLT_STORE": "postgres://nobody@127.0.0.1:1/nowhere"]
        for arguments in [
            ["import", file, "--data", directory.path + "/data"], ["export", "--data", directory.path + "/data"],
            ["prune", "--before", "2026-01-01", "--data", directory.path + "/data"],
            ["clicks", "--data", directory.path + "/data"], ["migrate", "--data", directory.path + "/data"],
        ] {
            let result = try ChildProcess.run(arguments, outputIn: directory.path, environment: elsewhere)
            #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(
                result.stderr.hasPrefix(
                    "tolt-edge: --data names a SQLite store, but TOLT_STORE names a PostgreSQL one"),
                "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/data"), "nothing was created")
        // An empty variable is no variable, as shells have it: the SQLite store is used.
        let unset = try ChildProcess.run(
            ["import", file, "--data", directory.path + "/data"], outputIn: directory.path,
            environment: ["TOLT_STORE": ""])
        #expect(unset.status == 0, "\(unset.stderr)")
    }

    /// `tolt-edge migrate` said "store is up to date" whatever it did, so an operator told to run it at a quiet time
    /// could not tell whether it had run the steps: it names the schema before and after, and the store.
    @Test func migrateSaysWhatItDid() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let first = try ChildProcess.run(["migrate", "--data", data], outputIn: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        let prefix = "migrated the store from schema 0 to "
        #expect(first.stdout.hasPrefix(prefix) && first.stdout.hasSuffix(" (SQLite in \(data))\n"), "\(first.stdout)")
        let version = first.stdout.dropFirst(prefix.count).prefix { $0.isNumber }
        #expect(Int(version).map { $0 >= 13 } == true, "\(first.stdout)")
        let again = try ChildProcess.run(["migrate", "--data", data], outputIn: directory.path)
        #expect(again.stdout == "store is up to date: schema \(version) (SQLite in \(data))\n", "\(again.stdout)")
    }
}
