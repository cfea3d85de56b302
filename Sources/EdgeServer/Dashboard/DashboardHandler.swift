import EdgeStore
import LinkCore

/// The dashboard: server-rendered pages under `/dashboard` for one organization per session, answered on the API's
/// workers (every store call happens there, never on a loop thread). Pages read through the API's reader
/// connections and the link table; forms write through the same importer and merge as `tolt-edge import`.
///
/// Every `GET` needs a live session (``DashboardSessions``), else it is sent to the sign-in page; every `POST` but
/// the sign-in needs the session's CSRF token too, else it is refused with `403`.
final class DashboardHandler: Sendable {
    let api: APIHandler
    let sessions: DashboardSessions
    /// Sign-in attempts: 10 a minute per client (an IPv4 address or an IPv6 /64).
    let signInLimiter: RateLimiter
    /// The links' public base URL: the partner page's QR codes and absolute links, the webhook URL.
    let publicURL: PublicURL?
    let layout: DashboardTemplate
    let signInPage: DashboardTemplate
    /// The server's log: a save that lost every retry to other writers is a line there.
    let log: @Sendable (String) -> Void

    /// The largest form body read, in bytes.
    static let maximumFormSize = 32 * 1024
    /// Rows per page of a list.
    static let pageSize = 50

    init(
        api: APIHandler, signer: ClickSigner, configuration: ServerConfiguration,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.api = api
        self.log = log
        sessions = DashboardSessions(
            signer: signer, lifetime: configuration.dashboardSessionLifetime, secure: configuration.tls != nil)
        signInLimiter = RateLimiter(limit: 10, window: 60, maximumClients: configuration.claimRateLimitClients)
        publicURL = configuration.publicURL
        layout = try DashboardTemplate(PageSources.dashboardLayout)
        signInPage = try DashboardTemplate(PageSources.dashboardSignIn)
    }

    /// Adds `/dashboard` and every path under it, for every method: the handler tells the pages apart, and answers
    /// a method a page does not take with its own `405` (the page's `Allow`, the page security headers).
    func register(in router: inout Router) {
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .other]
        router.add(Route(.exact("/dashboard"), methods: methods, name: "dashboard", handler: .worker(handle)))
        // `/dashboard` and anything after it, `/dashboard/` itself included (a prefix route needs something after
        // its prefix); a path that only starts with the same letters (`/dashboards`) is answered as the router would.
        router.add(
            Route(.prefix("/dashboard"), methods: methods, name: "dashboard_pages", handler: .worker(handle)))
    }

    /// What a page of a signed-in session knows about its request.
    struct Context {
        let request: APIRequest
        let organization: OrganizationRecord
        let sessionValue: String
        let csrfToken: String
        /// The form fields of a `POST` (empty for a `GET`), safe to show again (``DashboardFormBody``).
        let form: [String: String]
        /// Why a `POST`'s form cannot be used (bad encoding, a control character): the page shows its form again
        /// with this, and saves nothing.
        let formProblem: DashboardFormBody.Problem?

        var isPost: Bool { request.method == .post }
    }

    func handle(_ request: APIRequest) throws -> APIResponse {
        do {
            return try answer(request)
        } catch let error as StoreError where error.code == "unavailable" {
            return errorPage(503, "Unavailable", "The store cannot be reached now; try again in a moment.")
        } catch let error as StoreError where error.isConflict {
            // Other saves kept moving the configuration through every retry of the importer: nothing was saved, and
            // the same post a moment later goes through.
            log("dashboard: \(request.method.name) \(request.path.prefix(200)) not saved: \(error.message)")
            var response = errorPage(
                503, "Busy",
                "Others saved at the same moment and this change could not be saved: nothing was saved."
                    + " Go back and save again in a moment.")
            response.headers.append(("retry-after", "1"))
            return response
        } catch {
            // Still a dashboard answer: the page security headers go on the API's error too.
            var response = APIResponse.error(.answering(error))
            response.headers += Self.securityHeaders(nonce: nil)
            return response
        }
    }

    private func answer(_ request: APIRequest) throws -> APIResponse {
        guard request.path == "/dashboard" || request.path.hasPrefix("/dashboard/") else {
            let shown = String(decoding: Array(request.path.utf8.prefix(200)), as: UTF8.self)
            return APIResponse.error(.notFound("No such path: \(shown)"))
        }
        if request.path.utf8.count > 1, request.path.utf8.last == 0x2F {
            return trailingSlash(request)
        }
        let segments = Self.segments(of: request.path)
        guard let methods = Self.methods(of: segments) else {
            // No such page: signed in, the layout's 404; else as any page (sign in first), or 404 for other methods.
            if ![.get, .head, .post].contains(request.method) {
                return errorPage(404, "Not found", "There is no such page.")
            }
            return try signedIn(request, segments: segments)
        }
        guard methods.contains(request.method) else {
            var response = errorPage(
                405, "Method not allowed", "This page answers \(Self.allowHeader(methods)) requests only.")
            response.headers.append(("allow", Self.allowHeader(methods)))
            return response
        }
        let now = Clock.epochMilliseconds() / 1000
        if segments == ["dashboard", "sign-in"] {
            return request.method == .post ? signIn(request, now: now) : signInForm(request, now: now)
        }
        return try signedIn(request, segments: segments)
    }

    /// A page of a signed-in session: without a live session a `GET` goes to the sign-in page and a `POST` is
    /// refused; a `POST` must be a URL-encoded form (else `415`) with the session's CSRF token, once (else `403`).
    private func signedIn(_ request: APIRequest, segments: [String]) throws -> APIResponse {
        let now = Clock.epochMilliseconds() / 1000
        let table = api.watcher.table
        guard let sessionValue = DashboardSessions.cookieValue(in: request.headers[.cookie]),
            let organization = sessions.verify(
                sessionValue, now: now, organization: { id in table.organizations.first { $0.id == id } })
        else {
            if request.method == .post { return forbidden("Your session has ended. Sign in again.") }
            return Self.redirect(to: "/dashboard/sign-in")
        }
        var form = DashboardFormBody([])
        if request.method == .post {
            guard request.body.count <= Self.maximumFormSize else {
                return errorPage(413, "Too large", "The form is larger than \(Self.maximumFormSize) bytes.")
            }
            guard DashboardFormBody.acceptsContentType(request.headers[.contentType]) else {
                return Self.unsupportedForm(errorPage)
            }
            form = DashboardFormBody(request.body)
            guard !form.repeatedNames.contains("csrf_token") else {
                return forbidden("The form carries more than one security token. Reload the page and try again.")
            }
            guard sessions.checkCSRF(form.fields["csrf_token"], sessionValue: sessionValue) else {
                return forbidden("The form's security token is missing or out of date. Reload the page and try again.")
            }
        }
        let context = Context(
            request: request, organization: organization, sessionValue: sessionValue,
            csrfToken: sessions.csrfToken(for: sessionValue), form: form.fields, formProblem: form.problem)
        return try route(segments, context)
    }

    /// `415` for a post that is not a URL-encoded form, on `page` (the layout-less error page or the sign-in form).
    static func unsupportedForm(_ page: (Int, String, String) -> APIResponse) -> APIResponse {
        page(
            415, "Unsupported form",
            "Forms must be sent as application/x-www-form-urlencoded (UTF-8); nothing was saved.")
    }

    /// A path that ends in `/`: a `GET` or `HEAD` is sent to the path without it (`/dashboard/` to `/dashboard`,
    /// `/dashboard/programs/` to `/dashboard/programs`, the query kept), so each page has one address; any other
    /// method is `404`, as a form never posts there.
    private func trailingSlash(_ request: APIRequest) -> APIResponse {
        guard request.method == .get || request.method == .head else {
            return errorPage(404, "Not found", "There is no such page.")
        }
        var path = Substring(request.path)
        while path.count > 1, path.last == "/" { path.removeLast() }
        // The path and the query as they came, byte for byte (a byte a URL may not hold as it is escaped): the page it
        // leads to then reads the same query, repeated names, broken escapes, bytes that are not UTF-8 and all, and
        // refuses what it would have refused.
        let location =
            PercentEncoding.escapedForLocation(path.utf8)
            + (request.rawQuery.isEmpty ? [] : [0x3F] + PercentEncoding.escapedForLocation(request.rawQuery))
        var response = Self.redirect(to: String(decoding: location, as: UTF8.self))
        response.status = 308
        return response
    }

    /// The methods the page at `segments` answers (`HEAD` wherever `GET`), or `nil` when there is no such page.
    static func methods(of segments: [String]) -> [HTTPMethod]? {
        let read: [HTTPMethod] = [.get, .head]
        let form: [HTTPMethod] = [.get, .head, .post]
        guard segments.first == "dashboard" else { return nil }
        switch (segments.dropFirst().first ?? "", segments.count) {
        case ("", 1): return read
        case ("sign-in", 2): return form
        case ("sign-out", 2): return [.post]
        case ("programs", 2): return read
        case ("programs", 4) where segments[3] == "tracking": return form
        case ("partners", 2): return form
        case ("partners", 3): return read
        case ("partners", 4) where ["codes", "deactivate", "reactivate"].contains(segments[3]): return [.post]
        case ("partners", 6) where segments[3] == "codes" && ["deactivate", "reactivate"].contains(segments[5]):
            return [.post]
        case ("customers", 2), ("commissions", 2), ("clicks", 2): return read
        case ("settings", 3) where segments[2] == "integrations": return form
        default: return nil
        }
    }

    static func allowHeader(_ methods: [HTTPMethod]) -> String {
        methods.map(\.name).joined(separator: ", ")
    }

    /// Answers a page whose method ``methods(of:)`` allowed (an unknown path goes to the 404 page).
    private func route(_ segments: [String], _ context: Context) throws -> APIResponse {
        let post = context.isPost
        switch (segments.dropFirst().first ?? "", segments.count, post) {
        case ("", 1, false): return try overview(context)
        case ("sign-out", 2, true): return signOut()
        case ("programs", 2, false): return try programs(context)
        case ("programs", 4, _) where segments[3] == "tracking": return try tracking(context, programID: segments[2])
        case ("partners", 2, false): return try partnerList(context)
        case ("partners", 2, true): return try addPartner(context)
        case ("partners", 3, false): return try partner(context, partnerID: segments[2])
        case ("partners", 4, true) where segments[3] == "codes": return try addCode(context, partnerID: segments[2])
        case ("partners", 4, true) where segments[3] == "deactivate":
            return try deactivatePartner(context, partnerID: segments[2])
        case ("partners", 4, true) where segments[3] == "reactivate":
            return try reactivatePartner(context, partnerID: segments[2])
        case ("partners", 6, true) where segments[3] == "codes" && segments[5] == "deactivate":
            return try setCode(context, partnerID: segments[2], code: segments[4], active: false)
        case ("partners", 6, true) where segments[3] == "codes" && segments[5] == "reactivate":
            return try setCode(context, partnerID: segments[2], code: segments[4], active: true)
        case ("customers", 2, false): return try customers(context)
        case ("commissions", 2, false): return try commissions(context)
        case ("clicks", 2, false): return try clicks(context)
        case ("settings", 3, _) where segments[2] == "integrations": return try integrations(context)
        default: return page(context, status: 404, title: "Not found", current: nil, content: Self.notFoundContent)
        }
    }

    private static let notFoundContent =
        #"<p>There is no such page. <a href="/dashboard">Go to the overview</a>.</p>"#

    // MARK: Sign-in and sign-out

    private func signInForm(_ request: APIRequest, now: Int64) -> APIResponse {
        if let value = DashboardSessions.cookieValue(in: request.headers[.cookie]),
            sessions.verify(
                value, now: now, organization: { id in api.watcher.table.organizations.first { $0.id == id } })
                != nil
        {
            return Self.redirect(to: "/dashboard")
        }
        return signInResponse(status: 200, message: nil)
    }

    /// A sign-in post. Only one that carries its form's token is an attempt, counted by ``signInLimiter``: one
    /// refused for its token cannot test a key, and counting it would let any site lock a network out of signing in
    /// by making its visitors' browsers post forms here (without the `SameSite=Strict` cookie, so each a `403`).
    /// A wrong key is also a failed authentication (``APIHandler/countFailedAuthentication(_:)``), and a network
    /// that failed too often, here or on `/v1`, is refused before its key is read: the two ways to try a key share
    /// one budget.
    private func signIn(_ request: APIRequest, now: Int64) -> APIResponse {
        guard request.body.count <= Self.maximumFormSize else {
            return signInResponse(status: 400, message: "The form is too large.")
        }
        guard DashboardFormBody.acceptsContentType(request.headers[.contentType]) else {
            return Self.unsupportedForm { status, _, message in signInResponse(status: status, message: message) }
        }
        let body = DashboardFormBody(request.body)
        let form = body.fields
        guard !body.repeatedNames.contains("csrf_token"), Self.signInTokenMatches(request, form: form) else {
            return signInResponse(
                status: 403, message: "The sign-in form expired or came from elsewhere; sign in again.")
        }
        // The failed authentications this network made, here and on `/v1` (``APIHandler/authenticationWait(_:)``),
        // asked first: a sign-in they refuse is no attempt of the sign-in limit's.
        let client = ClientNetwork(address: request.clientIP)
        if let wait = api.authenticationWait(client) ?? signInLimiter.acquire(request.clientIP, now: Double(now)) {
            var response = signInResponse(
                status: 429, message: "Too many sign-in attempts from your network. Try again in \(wait) seconds.")
            response.headers.append(("retry-after", String(wait)))
            response.tally = .authentication(.rateLimited)
            return response
        }
        if let problem = body.problem {
            return signInResponse(
                status: 400, message: problem.field.map { "The \($0) field \(problem.reason)." } ?? problem.reason)
        }
        guard api.watcher.isLoaded else {
            return signInResponse(
                status: 503, message: "This node has not loaded its configuration yet; try again shortly.")
        }
        let key = (form["secret_key"] ?? "").trimmingSpaces
        // An empty field tries no key (Enter pressed on the empty form), as a request without `Authorization` does on
        // `/v1`: refused, and not counted against the network's other clients.
        guard !key.isEmpty else {
            return signInResponse(status: 400, message: "Enter the organization's secret key.")
        }
        // The table finds the organization by the key's digest; the digest is then compared in constant time.
        guard key.utf8.count <= 256, let organization = api.watcher.table.organization(secretKey: key),
            SecretDigest.matches(key, digest: organization.secretKeyDigest)
        else {
            api.countFailedAuthentication(client)
            var response = signInResponse(status: 401, message: "That secret key is not valid.")
            response.tally = .authentication(.wrongKey)
            return response
        }
        guard let session = sessions.value(for: organization, now: now) else {
            return signInResponse(status: 503, message: "The store cannot be reached yet; try again in a moment.")
        }
        var response = Self.redirect(to: "/dashboard")
        response.headers.append(("set-cookie", sessions.setCookie(session)))
        // The sign-in form's token has served: a browser that kept it would send it beside the session on every page.
        response.headers.append(
            (
                "set-cookie",
                "\(Self.signInCookie)=; Path=\(DashboardSessions.cookiePath); Max-Age=0; HttpOnly; SameSite=Strict"
                    + (sessions.secure ? "; Secure" : "")
            ))
        return response
    }

    private func signOut() -> APIResponse {
        var response = Self.redirect(to: "/dashboard/sign-in")
        response.headers.append(("set-cookie", sessions.clearCookie))
        return response
    }

    /// The sign-in form, with a token of its own: the form carries it and a cookie holds it (`SameSite=Strict`, so
    /// another site's page cannot send it), and a sign-in is taken only when both agree. This keeps another site
    /// from signing a visitor's browser into an organization of its choosing (login CSRF); no session exists yet to
    /// derive a token from, so it is random and lives in the cookie alone.
    private func signInResponse(status: Int, message: String?) -> APIResponse {
        let nonce = MessageAuthenticator.randomHex(byteCount: 16)
        let token = MessageAuthenticator.randomHex(byteCount: 16)
        var values = ["nonce": nonce, "csrf_token": token]
        if let message {
            values["message"] = #"<p class="error" id="secret_key_error" role="alert">"# + HTML.escape(message) + "</p>"
            values["invalid"] = #" aria-invalid="true" aria-describedby="secret_key_error secret_key_hint""#
        } else {
            values["invalid"] = #" aria-describedby="secret_key_hint""#
        }
        var response = Self.html(status: status, body: signInPage.render(values), nonce: nonce)
        response.headers.append(
            (
                "set-cookie",
                "\(Self.signInCookie)=\(token); Path=\(DashboardSessions.cookiePath); Max-Age=3600; HttpOnly; "
                    + "SameSite=Strict" + (sessions.secure ? "; Secure" : "")
            ))
        return response
    }

    /// The cookie that holds the sign-in form's token.
    static let signInCookie = "tolt_signin"

    /// Whether a sign-in post carries the token its form was given, as its cookie holds it (compared in constant time).
    private static func signInTokenMatches(_ request: APIRequest, form: [String: String]) -> Bool {
        guard let header = request.headers[.cookie], let posted = form["csrf_token"], posted.utf8.count == 32 else {
            return false
        }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard trimmed.hasPrefix(signInCookie + "=") else { continue }
            return MessageAuthenticator.constantTimeEquals(
                String(trimmed.dropFirst(signInCookie.utf8.count + 1)), posted)
        }
        return false
    }

    // MARK: Responses

    /// A page of the signed-in dashboard: `content` is markup built with ``HTML``.
    func page(_ context: Context, status: Int = 200, title: String, current: String?, content: String) -> APIResponse {
        let nonce = MessageAuthenticator.randomHex(byteCount: 16)
        var values = [
            "title": title, "organization": context.organization.name, "csrf_token": context.csrfToken,
            "nonce": nonce, "content": content,
        ]
        if let current { values["current_" + current] = #" aria-current="page""# }
        return Self.html(status: status, body: layout.render(values), nonce: nonce)
    }

    /// `403` for a form without a valid CSRF token or session.
    func forbidden(_ message: String) -> APIResponse {
        errorPage(403, "Forbidden", message)
    }

    /// A small page of its own for errors outside a session's layout.
    func errorPage(_ status: Int, _ title: String, _ message: String) -> APIResponse {
        let body =
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            + "content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\"><title>\(HTML.escape(title)) · Tolt Edge</title></head>"
            + "<body><main><h1>\(HTML.escape(title))</h1><p>\(HTML.escape(message))</p>"
            + "<p><a href=\"/dashboard\">Back to the dashboard</a></p></main></body></html>"
        return Self.html(status: status, body: Array(body.utf8), nonce: nil)
    }

    /// `303 See Other` to `location`, as every form answers on success.
    static func redirect(to location: String) -> APIResponse {
        APIResponse(status: 303, body: [], headers: securityHeaders(nonce: nil) + [("location", location)])
    }

    static func html(status: Int, body: [UInt8], nonce: String?) -> APIResponse {
        APIResponse(status: status, body: body, headers: securityHeaders(nonce: nonce), contentType: .html)
    }

    /// Every dashboard answer's headers (`Cache-Control: no-store` is every API answer's): scripts and styles only
    /// from the page itself with its nonce, no framing, no referrer beyond the origin.
    static func securityHeaders(nonce: String?) -> [(name: String, value: String)] {
        let inline = nonce.map { " 'nonce-\($0)'" } ?? ""
        return [
            (
                "content-security-policy",
                "default-src 'self'; script-src 'self'\(inline); style-src 'self'\(inline); img-src 'self' data:; "
                    + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
            ),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "same-origin"),
            ("x-content-type-options", "nosniff"),
        ]
    }

    /// The path's segments, percent-decoded: `/dashboard/partners/part_1` → `["dashboard", "partners", "part_1"]`;
    /// an empty one stays (`/dashboard//partners` is no page).
    static func segments(of path: String) -> [String] {
        path.utf8.dropFirst().split(separator: 0x2F, omittingEmptySubsequences: false).prefix(8).map { segment in
            Array(segment).withUnsafeBytes { QueryString.decode($0[...]) } ?? ""
        }
    }
}
