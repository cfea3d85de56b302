import Foundation
import TestSupport

/// Signing in to the dashboard and reading its pages over the test client's real socket.
extension HTTPClient {
    /// `POST /dashboard/sign-in` with `key`, as a browser sends the form: the form is fetched first, and its token
    /// goes back in the body and, as the form's cookie set it, in the `Cookie` header (`withToken: false` leaves both out).
    func dashboardSignIn(_ key: String, headers: [(String, String)] = [], withToken: Bool = true) throws -> HTTPResponse
    {
        var fields = "secret_key=" + DashboardForms.encode(key)
        var cookie: [(String, String)] = []
        if withToken {
            let form = try request("GET", "/dashboard/sign-in")
            guard let token = DashboardForms.csrfToken(in: form.text),
                let setCookie = form.header("set-cookie"), setCookie.hasPrefix("tolt_signin=")
            else { throw TestError("the sign-in form has no token: \(form.status) \(form.text)") }
            let value = setCookie.dropFirst("tolt_signin=".count).prefix { $0 != ";" }
            fields = "csrf_token=\(token)&" + fields
            cookie = [("Cookie", "tolt_signin=\(value)")]
        }
        return try request(
            "POST", "/dashboard/sign-in",
            headers: [("Content-Type", "application/x-www-form-urlencoded")] + cookie + headers,
            body: Array(fields.utf8))
    }

    /// Signs in with `key` and returns the session cookie's value; throws unless the answer is a `303` with one.
    func dashboardSession(_ key: String = "sk_acme_secret") throws -> String {
        let response = try dashboardSignIn(key)
        guard response.status == 303, let cookie = response.header("set-cookie"),
            let value = DashboardForms.sessionValue(in: cookie)
        else { throw TestError("sign-in: \(response.status) \(response.header("set-cookie") ?? "no cookie")") }
        return value
    }

    /// `GET path` with the session cookie.
    func dashboardPage(_ path: String, session: String) throws -> HTTPResponse {
        try request("GET", path, headers: [("Cookie", "tolt_session=\(session)")])
    }

    /// `POST path` with the session cookie and `fields` form-encoded.
    func dashboardPost(_ path: String, session: String?, fields: [(String, String)]) throws -> HTTPResponse {
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let session { headers.append(("Cookie", "tolt_session=\(session)")) }
        let body = fields.map { "\($0.0)=\(DashboardForms.encode($0.1))" }.joined(separator: "&")
        return try request("POST", path, headers: headers, body: Array(body.utf8))
    }
}

/// Pieces of dashboard pages and forms that tests take apart.
enum DashboardForms {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// The value in `Set-Cookie: tolt_session=<value>; …`.
    static func sessionValue(in setCookie: String) -> String? {
        guard setCookie.hasPrefix("tolt_session=") else { return nil }
        let value = setCookie.dropFirst("tolt_session=".count).prefix { $0 != ";" }
        return value.isEmpty ? nil : String(value)
    }

    /// The CSRF token a page's forms carry.
    static func csrfToken(in page: String) -> String? {
        guard let range = page.range(of: #"name="csrf_token" value=""#) else { return nil }
        let token = page[range.upperBound...].prefix { $0 != "\"" }
        return token.isEmpty ? nil : String(token)
    }
}

extension DashboardForms {
    /// The fields a browser sends for the form of `page` whose opening tag contains `marker`, as the page shows it:
    /// every input's value (hidden ones included; a checkbox only when ticked), each menu's selected option.
    static func browserFields(in page: String, form marker: String) throws -> [(String, String)] {
        let forms = page.components(separatedBy: "<form").dropFirst()
        guard let form = forms.first(where: { $0.prefix { $0 != ">" }.contains(marker) }),
            let end = form.range(of: "</form>")
        else { throw TestError("no form with \(marker)") }
        let body = String(form[..<end.lowerBound])
        var fields: [(String, String)] = []
        for tag in matches(#"<input\b[^>]*>"#, in: body) {
            guard let name = attribute("name", of: tag) else { continue }
            if attribute("type", of: tag) == "checkbox" {
                if tag.contains(" checked") { fields.append((name, attribute("value", of: tag) ?? "on")) }
            } else {
                fields.append((name, attribute("value", of: tag) ?? ""))
            }
        }
        for select in matches(#"<select\b[^>]*>.*?</select>"#, in: body) {
            guard let name = attribute("name", of: select) else { continue }
            let options = matches(#"<option\b[^>]*>"#, in: select)
            let chosen = options.first { $0.contains(" selected") } ?? options.first
            fields.append((name, chosen.flatMap { attribute("value", of: $0) } ?? ""))
        }
        return fields
    }

    /// `fields` with the value of each of `changes` in place of the one of its name.
    static func changing(_ fields: [(String, String)], _ changes: [String: String]) -> [(String, String)] {
        fields.map { ($0.0, changes[$0.0] ?? $0.1) }
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    /// The unescaped value of `name="…"` in `tag`.
    private static func attribute(_ name: String, of tag: String) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
