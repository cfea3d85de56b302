/// A C string that lives as long as the process, for header values and reason phrases that h2o keeps by
/// pointer.
///
/// `@unchecked Sendable`: written once at creation, never freed or changed.
struct StaticText: @unchecked Sendable {
    let pointer: UnsafePointer<CChar>
    let length: Int

    init(_ text: String) {
        let bytes = Array(text.utf8) + [0]
        let storage = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBytes {
            storage.initialize(from: $0.bindMemory(to: CChar.self).baseAddress!, count: bytes.count)
        }
        pointer = UnsafePointer(storage)
        length = bytes.count - 1
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: length) }

    static let html = StaticText("text/html; charset=utf-8")
    static let json = StaticText("application/json")
    static let plain = StaticText("text/plain; charset=utf-8")
    static let noStore = StaticText("no-store")
    static let noSniff = StaticText("nosniff")
    static let contentTypeOptions = StaticText("x-content-type-options")
    /// `Vary` of the not-found page: its words follow the language, and nothing else.
    static let acceptLanguage = StaticText("Accept-Language")
    /// `Vary` of a link's redirect: who asks (a phone, a desktop, a bot) decides where it goes.
    static let userAgent = StaticText("User-Agent")
    /// `Vary` of a link's pages: the words follow the language, the page (preview or fallback, badges, QR code) who
    /// asks.
    static let acceptLanguageAndUserAgent = StaticText("Accept-Language, User-Agent")

    /// The reason phrase for a status code.
    static func reason(_ status: Int) -> StaticText {
        switch status {
        case 200: return Reasons.ok
        case 201: return Reasons.created
        case 204: return Reasons.noContent
        case 302: return Reasons.found
        case 303: return Reasons.seeOther
        case 307: return Reasons.temporaryRedirect
        case 308: return Reasons.permanentRedirect
        case 400: return Reasons.badRequest
        case 401: return Reasons.unauthorized
        case 403: return Reasons.forbidden
        case 404: return Reasons.notFound
        case 405: return Reasons.methodNotAllowed
        case 409: return Reasons.conflict
        case 413: return Reasons.payloadTooLarge
        case 415: return Reasons.unsupportedMediaType
        case 417: return Reasons.expectationFailed
        case 429: return Reasons.tooManyRequests
        case 500: return Reasons.internalError
        case 503: return Reasons.unavailable
        // A status without its phrase here gets a neutral one of its class, never another status's ("201 Internal
        // Server Error" went out before 201 was listed).
        case 200..<300: return Reasons.success
        case 400..<500: return Reasons.clientError
        default: return Reasons.internalError
        }
    }

    private enum Reasons {
        static let ok = StaticText("OK")
        static let created = StaticText("Created")
        static let success = StaticText("Success")
        static let clientError = StaticText("Client Error")
        static let noContent = StaticText("No Content")
        static let found = StaticText("Found")
        static let seeOther = StaticText("See Other")
        static let temporaryRedirect = StaticText("Temporary Redirect")
        static let permanentRedirect = StaticText("Permanent Redirect")
        static let badRequest = StaticText("Bad Request")
        static let unauthorized = StaticText("Unauthorized")
        static let forbidden = StaticText("Forbidden")
        static let notFound = StaticText("Not Found")
        static let methodNotAllowed = StaticText("Method Not Allowed")
        static let conflict = StaticText("Conflict")
        static let payloadTooLarge = StaticText("Payload Too Large")
        static let unsupportedMediaType = StaticText("Unsupported Media Type")
        static let expectationFailed = StaticText("Expectation Failed")
        static let tooManyRequests = StaticText("Too Many Requests")
        static let unavailable = StaticText("Service Unavailable")
        static let internalError = StaticText("Internal Server Error")
    }
}
