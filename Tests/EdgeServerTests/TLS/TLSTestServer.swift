import EdgeServer
import TestSupport

/// A ``TestServer`` speaking TLS with a self-signed certificate of its own (`CN=first`), in a directory of its own.
final class TLSTestServer {
    let base: TestServer
    let certificate: TestCertificate
    private let files: TemporaryDirectory
    var port: Int { base.port }
    var server: EdgeServer { base.server }
    /// Where the certificate files are (a new pair of the same name replaces them for a reload).
    var directory: String { files.path }

    /// Starts a TLS server; `configure` may change any other setting.
    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        files = try TemporaryDirectory()
        do {
            let certificate = try TestCertificate(in: files.path, name: "first")
            self.certificate = certificate
            base = try TestServer { configuration in
                configuration.tls = TLSFiles(certificate: certificate.certificate, key: certificate.key)
                configure(&configuration)
            }
        } catch {
            files.remove()
            throw error
        }
    }

    func shutdown() {
        base.shutdown()
        files.remove()
    }

    /// A new TLS connection offering `alpn`, whose reads wait at most `timeout` seconds.
    func client(alpn: [String] = ["http/1.1"], timeout: Int = 10) throws -> TLSClient {
        try TLSClient(port: port, alpn: alpn, timeout: timeout)
    }

    /// Taps `SAM20` from an iPhone over TLS and waits for its click in the store: every click journaled before it is
    /// stored by then. Returns the ids stored and the tap's click id.
    func clicksThroughSentinel() throws -> (clicks: [String], sentinel: String) {
        let response = try client().request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        guard let sentinel = LinkResponses.clickID(in: response) else {
            throw TestError("the sentinel tap got no click id: \(response.status)")
        }
        guard try base.waitForClick(sentinel, within: 5) else {
            throw TestError("the sentinel \(sentinel) was not stored")
        }
        return (try base.storedClicks().map(\.id), sentinel)
    }
}
