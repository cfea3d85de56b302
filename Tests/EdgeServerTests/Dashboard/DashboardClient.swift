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
