import Foundation
import TestSupport
import Testing

/// The HTTP/1 response head the server writes itself (status line, Date, Connection, Content-Length, then the
/// headers): exact bytes, on kept-alive, closing and pipelined connections.
@Suite struct ResponseHeadTests {
    /// The head's lines, after checking the fixed part: status line, a Date within seconds of now, the
    /// Connection value and a Content-Length equal to the body's length.
    func checkHead(
        _ response: HTTPResponse, status: String, connection: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let lines = String(decoding: response.rawHead, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.count >= 5, sourceLocation: sourceLocation)
        guard lines.count >= 5 else { return lines }
        #expect(lines[0] == "HTTP/1.1 \(status)", sourceLocation: sourceLocation)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(lines[1].hasPrefix("Date: "), sourceLocation: sourceLocation)
        let date = try #require(formatter.date(from: String(lines[1].dropFirst(6))), sourceLocation: sourceLocation)
        #expect(abs(date.timeIntervalSinceNow) < 5, sourceLocation: sourceLocation)
        #expect(lines[2] == "Connection: \(connection)", sourceLocation: sourceLocation)
        #expect(lines[3] == "Content-Length: \(response.body.count)", sourceLocation: sourceLocation)
        #expect(lines.dropFirst(4).allSatisfy { $0.contains(": ") }, sourceLocation: sourceLocation)
        return lines
    }

    @Test func keptAliveResponsesCarryAnExactHead() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let redirect = try client.request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        let id = try #require(LinkResponses.clickID(in: redirect))
        let lines = try checkHead(redirect, status: "302 Found", connection: "keep-alive")
        #expect(
            Array(lines.dropFirst(4)) == [
                "location: myapp://claim?tolt_code=SAM20&tolt_click=\(id)", "vary: User-Agent", "server: tolt-edge",
                "cache-control: no-store",
            ])
        let page = try client.request("GET", "/a/pk_acme/lee", headers: [("User-Agent", Agents.desktop)])
        #expect(
            Array(try checkHead(page, status: "200 OK", connection: "keep-alive").dropFirst(4)) == [
                "vary: Accept-Language, User-Agent", "server: tolt-edge", "content-type: text/html; charset=utf-8",
                "cache-control: no-store",
            ])
        #expect(page.text.contains("LEE"))
        let missing = try client.request("GET", "/a/pk_acme/NOPE", headers: [("User-Agent", Agents.iPhone)])
        #expect(
            Array(try checkHead(missing, status: "404 Not Found", connection: "keep-alive").dropFirst(4)) == [
                "vary: Accept-Language", "server: tolt-edge", "content-type: text/html; charset=utf-8",
                "cache-control: no-store",
            ])
        let head = try client.request("HEAD", "/a/pk_acme/SAM20", headers: [("User-Agent", Agents.iPhone)])
        #expect(String(decoding: head.rawHead, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\nDate: "))
        #expect(head.body.isEmpty)
        #expect(try server.waitForClick(id))
    }

    @Test func anHTTP10RequestGetsConnectionCloseAndTheConnectionEnds() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let request = "GET /a/pk_acme/SAM20 HTTP/1.0\r\nUser-Agent: \(Agents.iPhone)\r\n\r\n"
        let response = try client.exchange(Array(request.utf8))
        _ = try checkHead(response, status: "302 Found", connection: "close")
        let id = try #require(LinkResponses.clickID(in: response))
        #expect(try server.waitForClick(id))
    }

    @Test func pipelinedRequestsEachGetTheirOwnHeadAndClick() throws {
        // The first and last requests are one visitor's taps: repeat taps off, so each is a click of its own.
        let server = try TestServer { $0.repeatTapWindow = 0 }
        defer { server.shutdown() }
        let one = "GET /a/pk_acme/SAM20 HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Agents.iPhone)\r\n\r\n"
        let page = "GET /a/pk_acme/LEE HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Agents.desktop)\r\n\r\n"
        let play = "GET /a/pk_acme/LEE HTTP/1.1\r\nHost: x\r\nUser-Agent: \(Agents.android)\r\n\r\n"
        let responses = try server.client().pipeline(Array((one + page + play + one).utf8), count: 4)
        let statuses = ["302 Found", "200 OK", "302 Found", "302 Found"]
        var ids: [String] = []
        for (response, status) in zip(responses, statuses) {
            _ = try checkHead(response, status: status, connection: "keep-alive")
            if status != "200 OK" { ids.append(try #require(LinkResponses.clickID(in: response))) }
        }
        #expect(responses[1].text.contains("LEE"))
        #expect(responses[2].header("location")?.hasPrefix("https://play.google.com/") == true)
        #expect(Set(ids).count == 3)
        for id in ids { #expect(try server.waitForClick(id)) }
    }

    /// h2o 2.2 writes `Cache-Control: private` in a `Vary`'s place for Internet Explorer (a User-Agent holding
    /// "; MSIE "), which caches nothing that varies; the server's own head does the same, so answers with a `Vary`
    /// (every link answer) keep h2o's bytes and are not left to h2o's slower writer.
    @Test func internetExplorerGetsCacheControlPrivateInVarysPlaceAsH2OWritesIt() throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = server.client()
        let msie = "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)"
        let page = try client.request("GET", "/a/pk_acme/LEE", headers: [("User-Agent", msie)])
        #expect(
            Array(try checkHead(page, status: "200 OK", connection: "keep-alive").dropFirst(4)) == [
                "cache-control: private", "server: tolt-edge", "content-type: text/html; charset=utf-8",
                "cache-control: no-store",
            ])
        // Anyone else gets the Vary.
        let other = try client.request(
            "GET", "/a/pk_acme/LEE", headers: [("User-Agent", msie.replacing("MSIE", with: "MSIF"))])
        #expect(other.header("vary") == "Accept-Language, User-Agent")
    }
}
