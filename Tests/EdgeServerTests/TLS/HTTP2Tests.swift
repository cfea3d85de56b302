import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/2 through a real client (curl, with nghttp2) over TLS, and cleartext HTTP/2 (h2c) only when asked for.
@Suite struct HTTP2Tests {
    /// Held link responses (sent once their clicks are journaled) go out on multiplexed HTTP/2 streams.
    @Test func curlTapsLinksOverHTTP2OnOneConnectionAndEveryClickIsStored() throws {
        // Every tap a click of its own: repeat taps off (one visitor's taps would share an id).
        let server = try TLSTestServer { $0.repeatTapWindow = 0 }
        defer { server.shutdown() }
        let output = server.directory + "/curl.out"
        let taps = 12
        let url = "https://localhost:\(server.port)/a/pk_acme/SAM20"
        let curl = try SpawnedProcess(
            executable: "/usr/bin/curl",
            arguments: [
                "-sk", "--http2", "--parallel", "--parallel-max", "12", "-A", Agents.iPhone, "--resolve",
                "localhost:\(server.port):127.0.0.1", "-w",
                "%{http_version} %{response_code} %{num_connects} %header{location}\\n",
            ]
                + Array(repeating: url, count: taps),
            standardOutput: output)
        curl.waitUntilExit()
        #expect(curl.terminationStatus == 0)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == taps)
        var ids: [String] = []
        var connections = 0
        for line in lines {
            let fields = line.split(separator: " ")
            try #require(fields.count == 4, "\(line)")
            #expect(fields[0] == "2" && fields[1] == "302", "\(line)")
            connections += Int(fields[2]) ?? 0
            let location = String(fields[3])
            #expect(location.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click=clk_"), "\(location)")
            if let range = location.range(of: "tolt_click=") { ids.append(String(location[range.upperBound...])) }
        }
        #expect(connections == 1, "curl multiplexed every tap on one connection")
        #expect(Set(ids).count == taps)
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(Set(clicks) == Set(ids + [sentinel]))
    }

    /// Cleartext HTTP/2 was on, unannounced and untested: the HTTP/2 preface and `Upgrade: h2c` now get HTTP/1.1.
    @Test func cleartextHTTP2IsOffByDefault() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let preface = try Self.firstBytes(port: server.port, sending: HTTP2Frames.preface)
        #expect(String(decoding: preface.prefix(12), as: UTF8.self) == "HTTP/1.1 400", "\(preface.prefix(16))")
        let upgrade = try Self.firstBytes(port: server.port, sending: Self.upgradeRequest)
        #expect(String(decoding: upgrade.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
    }

    @Test func h2cServesCleartextHTTP2WhenAskedFor() throws {
        let server = try TestServer { $0.h2c = true }
        defer { server.shutdown() }
        let preface = try Self.firstBytes(port: server.port, sending: HTTP2Frames.preface)
        let frame = HTTP2Frames.next(in: preface, from: 0)
        #expect(frame?.type == HTTP2Frames.FrameType.settings.rawValue, "the server's SETTINGS: \(preface.prefix(16))")
        let upgrade = try Self.firstBytes(port: server.port, sending: Self.upgradeRequest)
        #expect(String(decoding: upgrade.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
    }

    static let upgradeRequest = Array(
        ("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n").utf8)

    /// The first bytes the server sends back on a new connection after `bytes`.
    static func firstBytes(port: Int, sending bytes: [UInt8]) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestError("connect failed: errno \(errno)") }
        guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
        else { throw TestError("send failed") }
        var answer = [UInt8](repeating: 0, count: 4096)
        let count = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw TestError("no answer: \(count), errno \(errno)") }
        return Array(answer[..<count])
    }
}

extension HTTP2Tests {
    /// An HTTP/2 browser sends each cookie as a `cookie` line of its own (RFC 9113 8.2.3), and a signed-in browser
    /// holds two of the dashboard's (`tolt_signin` and `tolt_session`): only the first line was read, so the session
    /// behind it went unseen and every page sent the browser back to sign in. The lines are joined now, whichever
    /// comes first; over HTTP/1.1 one line with both was always read.
    @Test func theDashboardReadsASessionCookieSentOnAnHTTP2LineOfItsOwn() throws {
        let server = try TestServer { $0.h2c = true }
        defer { server.shutdown() }
        let session = try server.client().dashboardSession()
        for (index, lines) in [
            ["tolt_signin=anything", "tolt_session=\(session)"], ["tolt_session=\(session)", "other=1"],
            ["a=1", "b=2", "tolt_session=\(session)"],
        ].enumerated() {
            let output = server.directory + "/curl-cookies-\(index).out"
            let curl = try SpawnedProcess(
                executable: "/usr/bin/curl",
                arguments: ["-s", "-o", "/dev/null", "-w", "%{http_version} %{http_code}", "--http2-prior-knowledge"]
                    + lines.flatMap { ["-H", "cookie: \($0)"] } + ["http://127.0.0.1:\(server.port)/dashboard"],
                standardOutput: output)
            curl.waitUntilExit()
            let answer = try String(contentsOfFile: output, encoding: .utf8)
            #expect(answer == "2 200", "\(lines): \(answer)")
        }
    }
}
