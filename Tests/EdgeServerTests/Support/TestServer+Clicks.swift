import EdgeStore
import LinkCore
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Reading back the clicks a test server recorded, and proving that a request recorded none.
extension TestServer {
    /// Every stored click of an organization, newest first, read through the test's own store connection.
    func storedClicks(organizationID: String = "org_acme") throws -> [ClickRecord] {
        try store.allClicks(organizationID: organizationID)
    }

    /// Waits until the click `id` is in the store; `false` when it is not there within `seconds`.
    func waitForClick(_ id: String, organizationID: String = "org_acme", within seconds: Double = 2) throws -> Bool {
        try eventually(within: seconds) {
            try storedClicks(organizationID: organizationID).contains { $0.id == id }
        }
    }

    /// Waits until the store holds `count` clicks of the organization; `false` when it does not within `seconds`.
    ///
    /// Clicks reach the store "within about a second", longer under a saturating load (README), and `make test` runs
    /// the fuzz suites beside the link tests on 2 cores, where one run took 112 s for a suite that takes 1 s alone: so
    /// the default allows 10 s. The wait returns as soon as the count is there.
    func waitForClicks(count: Int, organizationID: String = "org_acme", within seconds: Double = 10) throws -> Bool {
        try eventually(within: seconds) { try storedClicks(organizationID: organizationID).count == count }
    }

    /// The clicks of `org_acme` once a sentinel click, made after everything the test sent before, is stored.
    ///
    /// A click is journaled before its response goes out, but one sentinel is not proof: the ingester reads each
    /// loop's segment in turn, so a pass that read one loop's segment just before an earlier click was appended to it
    /// can go on to store a sentinel appended to the other loop's segment after that click (seen once in CI on 2
    /// loaded cores; the earlier click was stored by the next pass). So a second sentinel is sent once the first is
    /// stored: the pass that stores it began after the first pass ended, so after every earlier click was written,
    /// and reads them all. The first sentinel's click is left out of what this returns: a test that expects no click
    /// from its requests expects exactly `[sentinel]` here.
    ///
    /// A sentinel's User-Agent is its own, so that it is never a repeat tap of the test's taps: a repeat reaching
    /// another loop would get an id the ingester does not list.
    func clicksThroughSentinel() throws -> (clicks: [ClickRecord], sentinel: String) {
        func sentinelClick() throws -> String {
            let agent = Agents.iPhone + " sentinel/\(UInt64.random(in: 0...UInt64.max))"
            let response = try client().request("GET", "/a/pk_acme/SAM20", headers: [("User-Agent", agent)])
            guard let sentinel = LinkResponses.clickID(in: response) else {
                throw TestError(
                    "the sentinel click got no click id: \(response.status) \(response.header("location") ?? "")")
            }
            guard try waitForClick(sentinel) else {
                throw TestError("the sentinel click \(sentinel) was not stored in 2 s")
            }
            return sentinel
        }
        let first = try sentinelClick()
        let sentinel = try sentinelClick()
        return (try storedClicks().filter { $0.id != first }, sentinel)
    }
}

/// Pieces of link responses that tests take apart.
enum LinkResponses {
    /// The click id in a redirect's `Location`: after `tolt_click=` (a template's query) or `tolt_click%3D`
    /// (a Play referrer), or after the `markers` given for another template.
    static func clickID(in response: HTTPResponse, after markers: [String] = ["tolt_click=", "tolt_click%3D"])
        -> String?
    {
        guard let location = response.header("location") else { return nil }
        for marker in markers {
            guard let range = location.range(of: marker) else { continue }
            let id = location[range.upperBound...].prefix { $0 != "&" && $0 != "%" && $0 != "#" }
            return id.isEmpty ? nil : String(id)
        }
        return nil
    }

    /// `scheme://authority` of a URL, lower-cased: what must never change whatever a code holds.
    static func origin(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return scheme + ":" }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return scheme + "://" + authority.lowercased()
    }

    /// Whether a click id has the documented shape: `clk_` and 40 URL-safe characters.
    static func isClickID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 44 && text.hasPrefix("clk_")
            && bytes.dropFirst(4).allSatisfy { ASCII.isUnreserved($0) && $0 != 0x2E && $0 != 0x7E }
    }

    /// Header values that hold a CR, an LF or another control byte: none may, whatever the input.
    static func headerLinesWithControlBytes(_ response: HTTPResponse) -> [String] {
        let lines = HTTPResponses.split(response.rawHead)
        return lines.filter { line in line.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F } }
            .map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The raw head of a response, line by line.
enum HTTPResponses {
    /// Splits the head at CRLF only, so that a lone CR or LF inside a value stays inside its line.
    static func split(_ head: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < head.count {
            if head[index] == 13, index + 1 < head.count, head[index + 1] == 10 {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(head[index])
                index += 1
            }
        }
        lines.append(current)
        return lines
    }
}

extension HTTPResponse {
    /// The body parsed as JSON.
    var json: JSONValue {
        get throws { try JSONParser.parse(body) }
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    var isNull: Bool { self == .null }
}
