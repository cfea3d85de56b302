/// The one table of routes: every path the server answers is registered here (the link path, the API, and what
/// comes next: webhooks, metrics, pages), and every request is routed once, by ``dispatch(_:to:link:)``.
///
/// Routes are tried in the order they were added; the first whose path matches answers, or says which methods it
/// allows (`405`). No match is a `404` in the JSON error shape.
struct Router: Sendable {
    private(set) var routes: [Route] = []
    /// For the client address of requests that run on workers (rate limits, the stored click's IP).
    let trustedProxies: TrustedProxies

    init(trustedProxies: TrustedProxies) {
        self.trustedProxies = trustedProxies
    }

    /// The most routes a table holds: each loop keeps its request counters for this many (``LoopMetrics``).
    static let maximumRoutes = 31
    /// The metrics' `route` label of requests no route matched.
    static let unmatchedName = "unmatched"

    /// Adds a route after those already added.
    mutating func add(_ route: Route) {
        precondition(
            !routes.contains { $0.path == route.path }, "two routes for the same path")
        precondition(routes.count < Self.maximumRoutes, "more than \(Self.maximumRoutes) routes")
        routes.append(route)
    }

    /// The index of the first route whose path matches `request`'s, or `routes.count` when none does: the slot its
    /// answer is counted in.
    @inline(__always)
    func routeIndex(of request: HTTPRequest) -> Int {
        for (index, route) in routes.enumerated() where route.matches(request.path) { return index }
        return routes.count
    }

    /// Answers `request` through `responder`: the link path goes to `link`, the loop's link handler.
    @inline(__always)
    func dispatch<Responder: HTTPResponder>(_ request: HTTPRequest, to responder: Responder, link: LinkHandler) {
        dispatch(request, routeIndex: routeIndex(of: request), to: responder, link: link)
    }

    /// Answers `request` by the route at `routeIndex` (``routeIndex(of:)``), or `404` past the last.
    @inline(__always)
    func dispatch<Responder: HTTPResponder>(
        _ request: HTTPRequest, routeIndex: Int, to responder: Responder, link: LinkHandler
    ) {
        guard routeIndex < routes.count else {
            let shown = String(decoding: request.path.prefix(200), as: UTF8.self)
            return responder.send(APIResponse.error(.notFound("No such path: \(shown)")))
        }
        dispatch(request, route: routes[routeIndex], to: responder, link: link)
    }

    @inline(__always)
    private func dispatch<Responder: HTTPResponder>(
        _ request: HTTPRequest, route: Route, to responder: Responder, link: LinkHandler
    ) {
        guard route.methods.contains(request.method) else {
            if route.allowsCrossOrigin && request.method == .options {
                return responder.send(
                    APIResponse(status: 204, body: [], headers: CORS.preflightHeaders(allowing: route.allowHeader)))
            }
            var response = APIResponse.error(.methodNotAllowed(route.allowHeader))
            if route.allowsCrossOrigin { response.headers += CORS.responseHeaders }
            return responder.send(response)
        }
        switch route.handler {
        case .link:
            link.handle(
                request, rest: UnsafeRawBufferPointer(rebasing: request.path[route.pathBytes.count...]), to: responder)
        case .appAssociation(let kind):
            link.handleAssociation(request, kind, to: responder)
        case .constant(let status, let contentType, let body):
            responder.send(HTTPResponse(status: status, contentType: contentType, body: body.bytes))
        case .worker(let work):
            let apiRequest = APIRequest(request, clientIP: ClientAddress.text(of: request, trusting: trustedProxies))
            let allowsCrossOrigin = route.allowsCrossOrigin
            responder.respondOnWorker {
                var response: APIResponse
                do {
                    response = try work(apiRequest)
                } catch let error as APIError {
                    response = APIResponse.error(error)
                } catch {
                    response = APIResponse.error(.answering(error))
                }
                if allowsCrossOrigin { response.headers += CORS.responseHeaders }
                return response
            }
        }
    }
}

/// Cross-origin headers for routes that browsers on other origins call (web and React Native apps claim codes).
enum CORS {
    static func preflightHeaders(allowing methods: String) -> [(name: String, value: String)] {
        [
            ("access-control-allow-origin", "*"),
            ("access-control-allow-methods", methods),
            ("access-control-allow-headers", "content-type"),
            ("access-control-max-age", "86400"),
        ]
    }
    static let responseHeaders: [(name: String, value: String)] = [("access-control-allow-origin", "*")]
}
