import Foundation
import TestSupport
import Testing

/// `tolt-edge clicks`, `customers` and `commissions` refuse the filters the API refuses, for the same reasons, naming
/// the option (exit 2): before, `commissions --partner-id part_nope` printed an empty list and exited 0, so a payout
/// script running `--partner-id "$P"` with `P` unset or mistyped read "nothing owed". And every command refuses an
/// option given twice (but `serve --trusted-proxy`, documented as repeatable): the last one used to win silently,
/// `prune --before 2026-06-01 --before 2026-07-01` deleting up to July.
@Suite struct ListCommandFilterTests {
    /// A CLI list's arguments, the API path and query that ask the same, and the CLI's option and the API's
    /// parameter the refusal names.
    struct Case: CustomStringConvertible, Sendable {
        var arguments: [String]
        var path: String
        var option: String
        var parameter: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(
            arguments: ["commissions", "--partner-id", "part_nope"], path: "/v1/commissions?partner_id=part_nope",
            option: "--partner-id", parameter: "partner_id"),
        Case(
            arguments: ["clicks", "--partner-id", "part_zed"], path: "/v1/clicks?partner_id=part_zed",
            option: "--partner-id", parameter: "partner_id"),
        Case(
            arguments: ["customers", "--partner-id", String(repeating: "p", count: 65)],
            path: "/v1/customers?partner_id=" + String(repeating: "p", count: 65), option: "--partner-id",
            parameter: "partner_id"),
        Case(
            arguments: ["customers", "--partner-id", ""], path: "/v1/customers?partner_id=", option: "--partner-id",
            parameter: "partner_id"),
        Case(
            arguments: ["commissions", "--customer-id", ""], path: "/v1/commissions?customer_id=",
            option: "--customer-id", parameter: "customer_id"),
        Case(
            arguments: ["customers", "--status", ""], path: "/v1/customers?status=", option: "--status",
            parameter: "status"),
        Case(
            arguments: ["customers", "--status", "paid"], path: "/v1/customers?status=paid", option: "--status",
            parameter: "status"),
        Case(
            arguments: ["commissions", "--status", "paid"], path: "/v1/commissions?status=paid", option: "--status",
            parameter: "status"),
        Case(
            arguments: ["clicks", "--starting-after", "clk_bad"], path: "/v1/clicks?starting_after=clk_bad",
            option: "--starting-after", parameter: "starting_after"),
        Case(
            arguments: ["clicks", "--starting-after", "clk_x"], path: "/v1/clicks?starting_after=clk_x",
            option: "--starting-after", parameter: "starting_after"),
        Case(
            arguments: ["commissions", "--starting-after", "cust_x"], path: "/v1/commissions?starting_after=cust_x",
            option: "--starting-after", parameter: "starting_after"),
        Case(
            arguments: ["commissions", "--starting-after", "comm_nope"],
            path: "/v1/commissions?starting_after=comm_nope", option: "--starting-after",
            parameter: "starting_after"),
        Case(
            arguments: ["clicks", "--limit", ""], path: "/v1/clicks?limit=", option: "--limit", parameter: "limit"),
    ]

    /// A server whose `org_acme` has a claimed customer with a commission.
    static func populated() throws -> TestServer {
        let server = try TestServer.webhooks()
        try server.claimUser("u1")
        try server.client().deliver(
            RevenueCatPayload.purchase(user: "u1", price: "9.99", transaction: "T1", id: "evt-1"))
        return server
    }

    @Test func aFilterTheAPIRefusesIsAUsageErrorForTheSameReason() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let client = server.client()
        for refused in Self.cases {
            let api = try client.request("GET", refused.path, headers: [("Authorization", "Bearer sk_acme_secret")])
            #expect(api.isError(400, "invalid_request"), "\(refused.path): \(api.status) \(api.text)")
            let run = try ChildProcess.run(
                refused.arguments + ["--data", server.directory, "--org", "org_acme"], outputIn: server.directory)
            #expect(run.status == 2, "\(refused): \(run.status) \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(refused): no list as if it applied: \(run.stdout)")
            let message = api.message.replacingOccurrences(of: refused.parameter, with: refused.option)
            #expect(run.stderr.hasPrefix("tolt-edge: \(message)\n"), "\(refused): \(run.stderr) vs \(api.message)")
            #expect(run.stderr.contains("usage: tolt-edge \(refused.arguments[0])"), "\(refused)")
        }
    }

    @Test func filtersThatNameRowsStillList() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        for arguments in [
            ["commissions", "--partner-id", "part_sam"],
            ["customers", "--partner-id", "part_sam", "--status", "paying"],
            ["commissions", "--customer-id", "u1", "--status", "pending"],
        ] {
            let run = try ChildProcess.run(
                arguments + ["--data", server.directory, "--org", "org_acme"], outputIn: server.directory)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout.contains(#""partner_id":"part_sam""#), "\(arguments): \(run.stdout)")
        }
        // An inactive partner is a partner: its (empty) list is the answer.
        let idle = try ChildProcess.run(
            ["commissions", "--partner-id", "part_idle", "--data", server.directory, "--org", "org_acme"],
            outputIn: server.directory)
        #expect(idle.status == 0, "\(idle.stderr)")
        #expect(idle.stdout.contains(#""data":[]"#), "\(idle.stdout)")
    }

    /// `--org` takes the public key as well as the id: a new user has the key at hand (the demo's banner, the app's
    /// configuration) and got "no such organization" for it.
    @Test func anOrganizationIsNamedByItsIdOrItsPublicKey() throws {
        let server = try Self.populated()
        defer { server.shutdown() }
        let byID = try ChildProcess.run(
            ["commissions", "--org", "org_acme", "--data", server.directory], outputIn: server.directory)
        let byKey = try ChildProcess.run(
            ["commissions", "--org", "pk_acme", "--data", server.directory], outputIn: server.directory)
        #expect(byID.status == 0 && byKey.status == 0, "\(byID.stderr) \(byKey.stderr)")
        #expect(byKey.stdout == byID.stdout && byID.stdout.contains(#""partner_id":"part_sam""#), "\(byKey.stdout)")
        let other = try ChildProcess.run(
            ["customers", "--org", "pk_other", "--data", server.directory], outputIn: server.directory)
        #expect(other.status == 0 && !other.stdout.contains("part_sam"), "\(other.stdout)")
        for unknown in ["pk_nope", "sk_acme_secret", "PK_ACME"] {
            let run = try ChildProcess.run(
                ["clicks", "--org", unknown, "--data", server.directory], outputIn: server.directory)
            #expect(run.status == 2, "\(unknown): \(run.stdout)")
            #expect(run.stderr.hasPrefix("tolt-edge: --org \(unknown): no organization has this id or public key"))
        }
    }

    @Test func anOptionGivenTwiceIsAUsageErrorOnEveryCommand() throws {
        let server = try PruneCommandTests.seeded()
        defer { server.shutdown() }
        let data = ["--data", server.directory]
        let repeated: [(arguments: [String], option: String)] = [
            (["prune", "--before", "2026-01-01T00:01:00Z", "--before", "2026-01-02"] + data, "--before"),
            (["prune", "--before=2026-01-02", "--before", "2026-01-02"] + data, "--before"),
            (["clicks", "--org", "org_other", "--org", "org_acme"] + data, "--org"),
            (["clicks", "--org", "org_acme", "--limit", "2", "--limit", "1"] + data, "--limit"),
            (["customers", "--org", "org_acme", "--status", "lead", "--status", "paying"] + data, "--status"),
            (
                ["commissions", "--org", "org_acme", "--partner-id", "part_sam", "--partner-id", "part_idle"] + data,
                "--partner-id"
            ),
            (["export"] + data + data, "--data"),
            (["import", "config.json", "--store", "postgres://a@b/c", "--store", "postgres://a@b/d"], "--store"),
            (["migrate"] + data + ["--help", "--help"], "--help"),
            (["serve", "--port", "0", "--port", "0", "--data", server.directory + "/other"], "--port"),
            (["serve", "--demo", "--demo", "--port", "0", "--data", server.directory + "/other"], "--demo"),
        ]
        for (arguments, option) in repeated {
            let run = try ChildProcess.run(arguments, outputIn: server.directory)
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stdout) \(run.stderr)")
            #expect(run.stderr.hasPrefix("tolt-edge: \(option) is given more than once"), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments): \(run.stdout)")
        }
        #expect(try PruneCommandTests.allTimes(server.store).count == 134, "nothing was pruned")
        #expect(!FileManager.default.fileExists(atPath: server.directory + "/other"), "no server started")

        let ua = try ChildProcess.run(["ua", "--explain", "--explain"], outputIn: server.directory)
        #expect(ua.status == 2)
        #expect(ua.stderr == "tolt-edge ua: --explain is given more than once\n", "\(ua.stderr)")
    }

    /// `serve --trusted-proxy` is documented as repeatable: each one is trusted, the first as well as the last.
    @Test func aRepeatableOptionMayBeGivenTwice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.path + "/data"
        let server = try ChildServer(
            dataDirectory: data, outputIn: directory.path, label: "proxies",
            arguments: [
                "--demo", "--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "10.0.0.0/8", "--ip-storage", "full",
            ])
        defer { server.kill() }
        let tap = try server.client().request(
            "GET", "/a/pk_demo/SAM20", headers: [("User-Agent", Agents.iPhone), ("X-Forwarded-For", "203.0.113.9")])
        #expect([200, 302].contains(tap.status), "\(tap.status) \(tap.text)")
        #expect(server.stop()?.status == 0, "SIGTERM stores the journaled click")
        let clicks = try ChildProcess.run(["clicks", "--data", data], outputIn: directory.path)
        #expect(clicks.status == 0, "\(clicks.stderr)")
        #expect(clicks.stdout.contains(#""ip":"203.0.113.9""#), "127.0.0.1 is trusted: \(clicks.stdout)")
    }
}
