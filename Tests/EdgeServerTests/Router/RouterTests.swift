import EdgeStore
import Foundation
import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

#if canImport(Glibc)
    import Glibc
#endif

/// The router and the link handler through the engine seam, with no socket and no engine: a request built from
/// plain bytes, and a responder that records what it is asked to send. The application behind them is real (a
/// migrated SQLite store with the standard configuration, its journal, its link table).
@Suite struct RouterTests {
    /// What a handler asked the responder to do.
    enum Answer {
        case now(status: Int, location: String?, body: String)
        case api(status: Int, headers: [String: String], body: String)
        case held(status: Int, location: String?, heldFirst: Bool)
        case worker
    }

    /// Records the one answer of a request; memory it hands out lives as long as the responder.
    final class RecordingResponder: HTTPResponder {
        var answers: [Answer] = []
        var holds = 0
        private var memory: [UnsafeMutableRawPointer] = []

        deinit { memory.forEach { $0.deallocate() } }

        func allocate(_ byteCount: Int) -> UnsafeMutableRawPointer {
            let block = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 8)
            memory.append(block)
            return block
        }

        func send(_ response: EngineResponse) {
            answers.append(
                .now(
                    status: response.status, location: response.location.map { String(decoding: $0, as: UTF8.self) },
                    body: String(decoding: response.body, as: UTF8.self)))
        }

        func send(_ response: APIResponse) {
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name] = header.value }
            answers.append(
                .api(status: response.status, headers: headers, body: String(decoding: response.body, as: UTF8.self)))
        }

        func hold(recording click: StagedClick) -> HeldResponse {
            holds += 1
            return HeldResponse(index: holds - 1, generation: 7)
        }

        func sendHeld(_ held: HeldResponse, _ response: EngineResponse) {
            #expect(held.generation == 7 && held.index == holds - 1)
            answers.append(
                .held(
                    status: response.status, location: response.location.map { String(decoding: $0, as: UTF8.self) },
                    heldFirst: holds > 0))
        }

        func respondOnWorker(_ work: @escaping @Sendable () -> APIResponse) {
            answers.append(.worker)
        }
    }

    /// Headers for the plain-bytes request: the context points at the User-Agent's bytes (NUL-terminated).
    static let readHeader: HTTPRequestSource.HeaderReader = { context, name, length in
        guard name == HTTPHeaderName.userAgent.rawValue else { return nil }
        let text = context.assumingMemoryBound(to: CChar.self)
        length.pointee = strlen(text)
        return UnsafeRawPointer(text)
    }
    static let readPeer: HTTPRequestSource.PeerReader = { _, _ in 0 }

    /// Dispatches `method path` with `userAgent` and returns what the responder recorded.
    static func dispatch(
        _ method: String, _ path: String, userAgent: String = Agents.iPhone, in application: EdgeApplication,
        link: LinkHandler
    ) -> RecordingResponder {
        let responder = RecordingResponder()
        let router = application.makeRouter()
        method.utf8CString.withUnsafeBytes { methodBytes in
            path.utf8CString.withUnsafeBytes { pathBytes in
                userAgent.utf8CString.withUnsafeBytes { agent in
                    let request = HTTPRequest(
                        method: HTTPMethod(UnsafeRawBufferPointer(rebasing: methodBytes.dropLast())),
                        path: UnsafeRawBufferPointer(rebasing: pathBytes.dropLast()),
                        query: UnsafeRawBufferPointer(start: nil, count: 0),
                        scheme: UnsafeRawBufferPointer(start: nil, count: 0),
                        authority: UnsafeRawBufferPointer(start: nil, count: 0),
                        body: UnsafeRawBufferPointer(start: nil, count: 0), receivedAt: 1_767_225_600_000,
                        source: HTTPRequestSource(
                            context: UnsafeMutableRawPointer(mutating: agent.baseAddress!), header: readHeader,
                            peer: readPeer))
                    router.dispatch(request, to: responder, link: link)
                }
            }
        }
        return responder
    }

    /// A real application over a migrated SQLite store holding the standard configuration.
    static func withApplication(_ body: (EdgeApplication, LinkHandler) throws -> Void) throws {
        let fixture = try StoreFixture(importing: ConfigFixtures.standard)
        defer { fixture.remove() }
        var configuration = ServerConfiguration()
        configuration.threads = 1
        configuration.dataDirectory = fixture.directory
        let journal = try ClickJournal(dataDirectory: fixture.directory)
        let application = try EdgeApplication(
            configuration: configuration, watcher: try ConfigWatcher(store: try fixture.reopen()), journal: journal,
            apiStore: try fixture.reopen(), apiReaders: [], signingKey: Array(repeating: 7, count: 32))
        let link = LinkHandler(application: application, loop: 0)
        defer { link.close() }
        try body(application, link)
    }

    @Test func aTapIsHeldUntilItsClickIsWrittenAndAPreviewIsNot() throws {
        try Self.withApplication { application, link in
            let tap = Self.dispatch("GET", "/a/pk_acme/sam20", in: application, link: link)
            guard case .held(302, let location?, true)? = tap.answers.first, tap.answers.count == 1 else {
                Issue.record("expected one held 302, got \(tap.answers)")
                return
            }
            #expect(location.hasPrefix("myapp://claim?tolt_code=SAM20&tolt_click=clk_"))
            #expect(link.writeClicks() == .written)

            let preview = Self.dispatch("GET", "/a/pk_acme/SAM20", userAgent: Agents.slack, in: application, link: link)
            guard case .now(200, nil, let page)? = preview.answers.first else {
                Issue.record("expected a preview page, got \(preview.answers)")
                return
            }
            #expect(preview.holds == 0 && page.contains("og:title"))
            let head = Self.dispatch("HEAD", "/a/pk_acme/SAM20", in: application, link: link)
            #expect(head.holds == 0)
            let missing = Self.dispatch("GET", "/a/pk_acme/NOPE", in: application, link: link)
            guard case .now(404, nil, _)? = missing.answers.first else {
                Issue.record("expected 404, got \(missing.answers)")
                return
            }
        }
    }

    @Test func theRouterAnswersUnknownPathsMethodsAndPreflightsItself() throws {
        try Self.withApplication { application, link in
            guard
                case .api(404, _, let body)? = Self.dispatch("GET", "/nope", in: application, link: link).answers.first
            else { Issue.record("expected 404"); return }
            #expect(body.contains("\"error\":\"not_found\""))

            guard
                case .api(405, let headers, _)? = Self.dispatch("POST", "/a/pk_acme/SAM20", in: application, link: link)
                    .answers.first
            else { Issue.record("expected 405"); return }
            #expect(headers["allow"] == "GET, HEAD")

            guard
                case .api(204, let preflight, _)? = Self.dispatch(
                    "OPTIONS", "/client/claims", in: application, link: link
                ).answers.first
            else { Issue.record("expected a preflight answer"); return }
            #expect(preflight["access-control-allow-methods"] == "POST, OPTIONS")

            guard
                case .now(200, nil, "ok\n")? = Self.dispatch("GET", "/healthz", in: application, link: link).answers
                    .first
            else { Issue.record("expected ok"); return }
            guard case .worker? = Self.dispatch("POST", "/client/claims", in: application, link: link).answers.first
            else { Issue.record("claims run on a worker"); return }
            // A prefix route needs something after its prefix.
            guard case .api(404, _, _)? = Self.dispatch("GET", "/a/", in: application, link: link).answers.first
            else { Issue.record("expected 404 for /a/"); return }
        }
    }
}
