import EdgeStore
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `tolt-edge serve` under a lowered descriptor limit (`prlimit --nofile`): it raises its soft limit to the
/// hard one, and at the limit it stops accepting instead of spinning, while the connections it holds and its journal
/// go on as usual.
@Suite(.serialized) struct DescriptorLimitTests {
    @Test func serveRaisesTheSoftDescriptorLimitToTheHardLimit() throws {
        let data = try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
        defer { data.remove() }
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "raised", descriptorLimit: (soft: 256, hard: 4096))
        defer { server.kill() }
        let limits = try String(contentsOfFile: "/proc/\(server.child.pid)/limits", encoding: .utf8)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }.map(String.init) ?? ""
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers == [4096, 4096], "\(line)")
        #expect(server.child.stderr.contains("soft limit raised from 256 to 4096"), "\(server.child.stderr)")
    }

    /// 600 slow clients (a request head never finished) against a limit of 256 descriptors: the server takes what
    /// its connection limit allows and leaves the rest in the kernel's backlog. Requests on connections it holds are
    /// answered at once, the loops do not spin, and taps made meanwhile reach the store (the journal and the ingester
    /// still have descriptors).
    @Test func atTheDescriptorLimitSlowConnectionsNeitherSpinTheLoopsNorSlowOtherRequests() throws {
        let data = try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
        defer { data.remove() }
        // Repeat taps off: the test checks that every tap made at the limit reaches the store as a click of its own.
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "limited", arguments: ["--dedupe-window", "0"],
            descriptorLimit: (soft: 256, hard: 256))
        defer { server.kill() }
        let clients = (0..<4).map { _ in server.client() }
        for client in clients { #expect(try client.request("GET", "/healthz").status == 200) }

        var slow: [Int32] = []
        defer { for descriptor in slow { close(descriptor) } }
        for _ in 0..<600 {
            let descriptor = try Self.connect(port: server.port)
            slow.append(descriptor)
            let head = Array("GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow".utf8)
            _ = head.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        usleep(1_000_000)  // the server has taken what it takes

        let cpuBefore = try Self.cpuSeconds(pid: server.child.pid)
        let start = TestClock.now()
        var latencies: [Double] = []
        var ids: [String] = []
        for index in 0..<300 {
            let client = clients[index % clients.count]
            let began = TestClock.now()
            if index % 2 == 0 {
                let response = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
                #expect(response.status == 302)
                if let id = LinkResponses.clickID(in: response) { ids.append(id) }
            } else {
                #expect(try client.request("GET", "/healthz").status == 200)
            }
            latencies.append(TestClock.now() - began)
            usleep(5_000)
        }
        let elapsed = TestClock.now() - start
        let cores = (try Self.cpuSeconds(pid: server.child.pid) - cpuBefore) / elapsed
        latencies.sort()
        let p99 = latencies[latencies.count * 99 / 100]
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.child.pid)/fd").count)
        #expect(p99 < 0.050, "p99 \(p99 * 1000) ms (p50 \(latencies[latencies.count / 2] * 1000) ms)")
        // Below one core is the requirement; an idle server uses a few hundredths, and loops spinning on the listener
        // take most of both cores (0.8 here, beside the test and other work).
        #expect(cores < 0.5, "the server used \(cores) cores while at its descriptor limit")
        #expect(ids.count == 150)
        // The journal and the ingester still have descriptors: the taps reach the store while the limit holds.
        let stored = eventually(within: 10) {
            let clicks = (try? SQLiteStore(directory: data.path).allClicks().map(\.id)) ?? []
            return Set(ids).isSubset(of: Set(clicks))
        }
        #expect(stored, "the taps made at the limit were stored: \(server.child.stderr.suffix(2000))")
        print(
            "at the limit: p99 \(p99 * 1000) ms, \(cores) cores, \(descriptors ?? -1) descriptors open, "
                + "\(slow.count) slow clients")
    }

    static func connect(port: Int) throws -> Int32 {
        try LoopbackSocket.connect(port: port, receiveTimeout: nil)
    }

    /// User and system CPU time of a process so far, from `/proc/<pid>/stat`.
    static func cpuSeconds(pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = stat.lastIndex(of: ")") else { throw TestError("unreadable stat: \(stat)") }
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw TestError("unreadable stat: \(stat)")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
