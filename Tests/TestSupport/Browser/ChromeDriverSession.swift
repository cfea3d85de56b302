import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A headless Chromium driven over WebDriver: starts `chromedriver` as a child process on a free loopback port,
/// opens one session, and speaks the W3C WebDriver JSON protocol through ``HTTPClient``.
///
/// Call ``quit()`` in a `defer`: it ends the session, stops chromedriver and kills any Chromium it left behind.
package final class ChromeDriverSession {
    package static let chromiumPath = "/usr/bin/chromium"
    package static let chromedriverPath = "/usr/bin/chromedriver"

    private let driver: SpawnedProcess
    private let client: HTTPClient
    private var sessionID: String?

    /// Starts chromedriver and a headless Chromium that presents itself with `userAgent`.
    package init(userAgent: String) throws {
        for path in [Self.chromiumPath, Self.chromedriverPath] where access(path, X_OK) != 0 {
            throw TestError("\(path) is missing: run scripts/install-deps.sh test (make test installs it)")
        }
        let port = try Ports.reserve()  // chromedriver binds it right after
        driver = try SpawnedProcess(
            executable: Self.chromedriverPath, arguments: ["--port=\(port)", "--allowed-ips=127.0.0.1"])
        client = HTTPClient(port: port)
        do {
            try waitUntilReady()
            let options: [String: Any] = [
                "binary": Self.chromiumPath,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--window-size=1280,900", "--user-agent=\(userAgent)",
                ],
            ]
            let capabilities = ["capabilities": ["alwaysMatch": ["goog:chromeOptions": options]]]
            let created = try command("POST", "/session", capabilities)
            guard let id = (created as? [String: Any])?["sessionId"] as? String else {
                throw TestError("chromedriver answered no session id: \(created)")
            }
            sessionID = id
            _ = try command("POST", "/session/\(id)/timeouts", ["script": 5_000, "pageLoad": 10_000])
        } catch {
            quit()
            throw error
        }
    }

    /// Opens `url` and waits for the page to load.
    package func open(_ url: String) throws {
        _ = try sessionCommand("POST", "/url", ["url": url])
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page and returns its result.
    package func run(_ script: String, _ args: [Any] = []) throws -> Any {
        try sessionCommand("POST", "/execute/sync", ["script": script, "args": args])
    }

    /// Runs `script` whose last argument is a callback, and returns what it passes to the callback.
    package func runAsync(_ script: String, _ args: [Any] = []) throws -> Any {
        try sessionCommand("POST", "/execute/async", ["script": script, "args": args])
    }

    /// The WebDriver element reference for `selector`, or `nil` when the page has none.
    package func element(_ selector: String) throws -> String? {
        let found = try sessionCommand("POST", "/elements", ["using": "css selector", "value": selector])
        guard let first = (found as? [[String: Any]])?.first else { return nil }
        return first.values.first as? String
    }

    /// The element's text as rendered (what a person sees), and whether it is displayed.
    package func visibleText(_ element: String) throws -> (text: String, displayed: Bool) {
        let text = try sessionCommand("GET", "/element/\(element)/text") as? String ?? ""
        let displayed = try sessionCommand("GET", "/element/\(element)/displayed") as? Bool ?? false
        return (text, displayed)
    }

    /// Clicks the element as a user would (a trusted event, with user activation).
    package func click(_ element: String) throws {
        _ = try sessionCommand("POST", "/element/\(element)/click", [:])
    }

    /// Runs a Chrome DevTools Protocol command in the session's browser.
    package func devTools(_ command: String, _ params: [String: Any]) throws {
        _ = try sessionCommand("POST", "/goog/cdp/execute", ["cmd": command, "params": params])
    }

    /// Lets pages of `origin` write and read the clipboard without asking, as a person who allowed it would.
    package func grantClipboard(to origin: String) throws {
        try devTools(
            "Browser.grantPermissions",
            ["origin": origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]])
    }

    /// A PNG of the viewport.
    package func screenshot() throws -> Data {
        guard let base64 = try sessionCommand("GET", "/screenshot") as? String, let png = Data(base64Encoded: base64)
        else { throw TestError("screenshot was not base64") }
        return png
    }

    /// A PNG of one element, as it is drawn on the page.
    package func screenshot(of element: String) throws -> Data {
        guard let base64 = try sessionCommand("GET", "/element/\(element)/screenshot") as? String,
            let png = Data(base64Encoded: base64)
        else { throw TestError("element screenshot was not base64") }
        return png
    }

    /// Ends the session (Chromium quits), stops chromedriver, and kills any browser process still alive.
    package func quit() {
        let browsers = Self.children(of: driver.processIdentifier).filter(Self.isLiveChromium)
        if let id = sessionID { _ = try? command("DELETE", "/session/\(id)", nil) }
        sessionID = nil
        // chromedriver exits at once on its own /shutdown, but lingers for seconds after SIGTERM.
        _ = try? client.request("GET", "/shutdown")
        client.disconnect()
        _ = eventually(within: 2) { !driver.isRunning && !browsers.contains(where: Self.isLiveChromium) }
        if driver.isRunning {
            kill(driver.processIdentifier, SIGKILL)
            driver.waitUntilExit()
        }
        // Chromium's helpers (zygote, renderers, crashpad) exit by themselves once their browser process is gone.
        for pid in browsers where Self.isLiveChromium(pid) { kill(pid, SIGKILL) }
    }

    private func sessionCommand(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> Any {
        guard let id = sessionID else { throw TestError("no WebDriver session") }
        return try command(method, "/session/\(id)\(path)", body)
    }

    /// Sends one WebDriver command and returns its `value`, or throws the WebDriver error it reports.
    private func command(_ method: String, _ path: String, _ body: [String: Any]?) throws -> Any {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let headers = body == nil ? [] : [("Content-Type", "application/json; charset=utf-8")]
        let response = try client.request(method, path, headers: headers, body: bytes)
        let json = try JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
        let value = (json as? [String: Any])?["value"] ?? NSNull()
        guard response.status == 200 else {
            let failure = value as? [String: Any]
            throw TestError(
                "WebDriver \(method) \(path): \(failure?["error"] ?? response.status) \(failure?["message"] ?? "")")
        }
        return value
    }

    private func waitUntilReady() throws {
        let ready = eventually(within: 5) {
            guard let status = try? command("GET", "/status", nil) as? [String: Any] else { return false }
            return status["ready"] as? Bool == true
        }
        guard ready else { throw TestError("chromedriver did not become ready within 5 s") }
    }

    /// The process ids whose parent is `parent`, read from `/proc`.
    private static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry), let status = processStatus(pid), status.parent == parent else { return nil }
            return pid
        }
    }

    /// Whether `pid` is a Chromium process that has not exited (a zombie has, and may never be reaped in a
    /// container whose init does not reap).
    private static func isLiveChromium(_ pid: Int32) -> Bool {
        guard let status = processStatus(pid) else { return false }
        return status.name.hasPrefix("chrom") && status.state != "Z"
    }

    /// The name, state and parent of `pid` from `/proc/<pid>/stat`: `pid (name) state ppid …`.
    private static func processStatus(_ pid: Int32) -> (name: Substring, state: Substring, parent: Int32)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (stat[stat.index(after: open)..<close], fields[0], parent)
    }
}
