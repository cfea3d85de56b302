import EdgeServer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--tls-cert` and `--tls-key`: TLS 1.2 and 1.3 with forward-secret AEAD ciphers only, ALPN `h2` and `http/1.1`, and
/// a certificate reloaded for new connections while open ones keep theirs.
@Suite struct TLSTests {
    @Test func alpnChoosesHTTP2OrHTTP1AndBothAnswer() throws {
        let server = try TLSTestServer()
        defer { server.shutdown() }
        let both = try TLSClient(port: server.port, alpn: ["h2", "http/1.1"])
        #expect(both.negotiatedProtocol == "h2")
        #expect(both.version == "TLSv1.3")
        let http1 = try TLSClient(port: server.port, alpn: ["http/1.1"])
        #expect(http1.negotiatedProtocol == "http/1.1")
        let answer = try http1.request("GET", "/healthz")
        #expect(answer.status == 200 && answer.text == "ok\n")
        // A second request on the same connection: kept alive over TLS.
        let tap = try http1.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(tap.status == 302 && LinkResponses.clickID(in: tap) != nil)
        // No ALPN at all (an old client): HTTP/1.1.
        let none = try TLSClient(port: server.port, alpn: [])
        #expect(none.negotiatedProtocol == nil)
        #expect(try none.request("GET", "/healthz").status == 200)
    }

    @Test func onlyModernProtocolsAndForwardSecretAEADCiphersAreAccepted() throws {
        let server = try TLSTestServer()
        defer { server.shutdown() }
        #expect(throws: (any Error).self, "TLS 1.1 is refused") {
            try TLSClient(port: server.port, maximumVersion: .tls11, ciphers: "ALL:@SECLEVEL=0")
        }
        // TLS 1.2 without ECDHE (RSA key exchange), or with CBC: refused.
        for weak in [
            "AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "DHE-RSA-AES128-GCM-SHA256",
        ] {
            #expect(throws: (any Error).self, "\(weak) is refused") {
                try TLSClient(port: server.port, maximumVersion: .tls12, ciphers: weak)
            }
        }
        for strong in [
            "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305",
        ] {
            let client = try TLSClient(port: server.port, maximumVersion: .tls12, ciphers: strong)
            #expect(client.version == "TLSv1.2" && client.cipher == strong)
        }
        let modern = try TLSClient(port: server.port)
        #expect(modern.version == "TLSv1.3")
    }

    @Test func aReloadedCertificateServesNewConnectionsWhileOpenOnesKeepTheirs() throws {
        let server = try TLSTestServer()
        defer { server.shutdown() }
        let first = server.certificate
        let before = try TLSClient(port: server.port, alpn: ["http/1.1"])
        #expect(try before.request("GET", "/healthz").status == 200)
        // The same paths, a new certificate (CN=first still, a new key).
        _ = try TestCertificate(in: server.directory, name: "first")
        try server.server.reloadCertificate()
        let after = try TLSClient(port: server.port, alpn: ["http/1.1"])
        #expect(after.certificateFingerprint != before.certificateFingerprint, "a new connection gets the new one")
        // The connection opened before the reload goes on, with its certificate.
        #expect(try before.request("GET", "/healthz").status == 200)
        #expect(try after.request("GET", "/healthz").status == 200)

        // A broken file: the reload fails and says why; the current certificate stays.
        try "not a certificate".write(toFile: first.certificate, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try server.server.reloadCertificate() }
        let still = try TLSClient(port: server.port, alpn: ["http/1.1"])
        #expect(still.certificateFingerprint == after.certificateFingerprint)
    }

    @Test func aCertificateThatCannotBeLoadedStopsTheStart() throws {
        let files = try TemporaryDirectory()
        defer { files.remove() }
        let one = try TestCertificate(in: files.path, name: "one")
        let other = try TestCertificate(in: files.path, name: "other")
        #expect(throws: ConfigurationError.self) {
            _ = try TestServer { $0.tls = TLSFiles(certificate: one.certificate, key: other.key) }
        }
        #expect(throws: ConfigurationError.self) {
            _ = try TestServer { $0.tls = TLSFiles(certificate: files.path + "/missing.crt", key: one.key) }
        }
    }

    /// `tolt-edge serve --tls-cert --tls-key`, then `kill -HUP`: new connections get the new certificate.
    @Test func serveReloadsTheCertificateOnSIGHUP() throws {
        let data = try StoreFixture(importing: ConfigFixtures.standard).temporaryDirectory
        defer { data.remove() }
        let first = try TestCertificate(in: data.path, name: "edge")
        let server = try ChildServer(
            dataDirectory: data.path, outputIn: data.path, label: "tls",
            arguments: ["--tls-cert", first.certificate, "--tls-key", first.key])
        defer { server.kill() }
        #expect(server.child.stdout.contains("listening on https://127.0.0.1:"))
        let before = try TLSClient(port: server.port, alpn: ["http/1.1"])
        _ = try TestCertificate(in: data.path, name: "edge")
        server.child.signal(SIGHUP)
        #expect(
            eventually(within: 5) { server.child.stderr.contains("TLS certificate reloaded") }, "\(server.child.stderr)"
        )
        let after = try TLSClient(port: server.port, alpn: ["http/1.1"])
        #expect(after.certificateFingerprint != before.certificateFingerprint)
        #expect(try before.request("GET", "/healthz").status == 200, "the open connection goes on")
        #expect(server.child.process.isRunning, "SIGHUP did not stop the server")
        #expect(server.stop()?.status == 0)
    }
}
