import EdgeServer
import EdgeStore
import Foundation
import TestSupport

/// A real `tolt-edge` server in the test process, on an ephemeral port (or one the test reserved) of 127.0.0.1,
/// with its own data directory and SQLite file: what the SDK's tests claim against.
///
/// Like `EdgeServerTests`' `TestServer`, with what the SDK's tests need beside it: the base URL to configure
/// the SDK with, taps on links, and the customers the claims made.
package final class EdgeTestServer {
    private let fixture: StoreFixture
    private let server: EdgeServer

    /// The port the server listens on.
    package var port: Int { server.port }
    /// `http://127.0.0.1:<port>`: what the SDK is configured with.
    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a server over `config` (the import JSON form) on `port` (0 for any free one).
    package init(config: String = ConfigFixtures.standard, port: Int = 0) throws {
        fixture = try StoreFixture(importing: config)
        do {
            var configuration = ServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = port
            configuration.threads = 1
            configuration.dataDirectory = fixture.directory
            server = try EdgeServer(configuration: configuration, log: { _ in })
        } catch {
            fixture.remove()
            throw error
        }
        server.start()
    }

    /// Stops the server and removes its files.
    package func shutdown() {
        _ = server.stop()
        fixture.remove()
    }

    /// A raw HTTP client for this server.
    package func client() -> HTTPClient { HTTPClient(port: port) }

    /// A person's tap on `/a/<key>/<code>` with `userAgent`: the link's answer, as a browser would get it.
    package func tap(publicKey: String = "pk_acme", code: String, userAgent: String) throws -> HTTPResponse {
        try client().request("GET", "/a/\(publicKey)/\(code)", headers: [("User-Agent", userAgent)])
    }

    /// The customer the organization has for `appUserId` (`GET /v1/customers?customer_id=`), or `nil`.
    package func customer(_ appUserId: String, secretKey: String = "sk_acme_secret") throws -> Customer? {
        let query = "customer_id=" + (appUserId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let response = try client().request(
            "GET", "/v1/customers?" + query, headers: [("Authorization", "Bearer \(secretKey)")])
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let data = object["data"] as? [[String: Any]]
        else { throw TestError("GET /v1/customers?\(query): \(response.status) \(response.text)") }
        return data.first.map(Customer.init)
    }
}

/// A customer as `GET /v1/customers` lists it: the fields the SDK's claims set.
package struct Customer: Sendable, Equatable {
    package var appUserId: String?
    package var partnerId: String?
    package var code: String?
    package var clickId: String?
    package var firstSeenAt: String?

    init(_ object: [String: Any]) {
        appUserId = object["customer_id"] as? String
        partnerId = object["partner_id"] as? String
        code = object["code"] as? String
        clickId = object["click_id"] as? String
        firstSeenAt = object["first_seen_at"] as? String
    }
}
