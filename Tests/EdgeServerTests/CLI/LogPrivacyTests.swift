import TestSupport
import Testing

/// No client address and no User-Agent in what `tolt-edge serve` writes (it has one log level, the default): taps
/// and error paths with a distinctive User-Agent and addresses (through a trusted proxy's `X-Forwarded-For`), then
/// the whole captured output, shutdown included, is searched for them.
@Suite struct LogPrivacyTests {
    static let agent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) ProbeAgentQx7731/9.9"
    static let marker = "ProbeAgentQx7731"

    @Test func theServersOutputHoldsNoAddressAndNoUserAgent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The broken database makes the ingester log failed lookups: the log lines nearest to an address.
        let server = try ChildServer(
            dataDirectory: directory.path + "/data", outputIn: directory.path, label: "privacy",
            arguments: [
                "--demo", "--trusted-proxy", "127.0.0.1/32", "--ip-storage", "full",
                "--geoip", try TestFiles.fixture("geoip/MaxMind-DB-test-broken-pointers-24.mmdb"),
            ])
        defer { server.kill(within: 10) }
        let addresses = ["1.1.1.32", "1.1.1.16", "203.0.113.77", "2001:db8:77:4417::9"]
        let client = server.client()
        var statuses: [Int] = []
        for address in addresses {
            let headers = [("User-Agent", Self.agent), ("X-Forwarded-For", address), ("Referer", "https://r.example/")]
            for path in ["/a/pk_demo/SAM20", "/a/pk_demo/nosuchcode", "/a/pk_nobody/SAM20", "/a/", "/nowhere"] {
                statuses.append(try client.request("GET", path, headers: headers).status)
            }
            statuses.append(try client.request("HEAD", "/a/pk_demo/SAM20", headers: headers).status)
            statuses.append(try client.request("DELETE", "/a/pk_demo/SAM20", headers: headers).status)
            statuses.append(
                try client.request("GET", "/v1/clicks", headers: headers + [("Authorization", "Bearer sk_wrong")])
                    .status)
            statuses.append(
                try client.request(
                    "POST", "/client/claims", headers: headers + [("Content-Type", "application/json")],
                    body: Array("{not json".utf8)
                ).status)
            statuses.append(
                try client.request(
                    "POST", "/client/claims", headers: headers + [("Content-Type", "application/json")],
                    body: [UInt8](repeating: 0x20, count: 20_000)
                ).status)
            statuses.append(
                try client.request(
                    "POST", "/webhooks/revenuecat/pk_demo", headers: headers + [("Authorization", "wrong")],
                    body: Array("{}".utf8)
                ).status)
        }
        #expect(statuses.contains(302) || statuses.contains(200), "the link answered")
        #expect(Set(statuses).isSuperset(of: [404, 401]), "\(Set(statuses))")
        // A malformed request (two lengths) and one that ends mid-head.
        let raw = HTTPClient(port: server.port)
        _ = try? raw.exchange(
            Array(
                ("POST /client/claims HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Self.agent)\r\nX-Forwarded-For: 203.0.113.77\r\n"
                    + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}").utf8))

        // Every click ingested (the failed lookups logged), then a clean stop: every line the server writes.
        #expect(
            try eventually(within: 5) {
                let listed = try client.request("GET", "/v1/clicks", headers: [("Authorization", "Bearer sk_demo")])
                return try listed.json["data"]?.arrayValue?.count == addresses.count
            })
        #expect(server.stop(within: 20)?.status == 0)
        let output = server.child.stdout + server.child.stderr
        #expect(output.contains("geoip: "), "the lookup failures were logged: \(output)")
        #expect(!output.contains(Self.marker), "\(output)")
        #expect(!output.contains("r.example"))
        for address in addresses + ["1.1.1.0", "203.0.113.0", "2001:db8:77"] {
            #expect(!output.contains(address), "\(address) in \(output)")
        }
    }
}
