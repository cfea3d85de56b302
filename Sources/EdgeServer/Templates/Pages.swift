import LinkCore

/// The compiled pages, one set per language: the layout's whitespace is dropped (``MarkupWhitespace``) and the
/// words are put into the markup here, at start-up (``PageWords``), so a request only picks its language's set
/// (``AcceptLanguage``).
struct Pages: Sendable {
    /// One set per ``PageLanguage``, by raw value.
    let languages: [LocalizedPages]

    /// Compiled once per process: the not-found pages' text lives as long as the process (``StaticText``), so
    /// servers started and stopped in one process share it instead of each leaking a copy.
    static let standard = Result { try Pages() }

    private init() throws {
        let sources = try LocalizedPages.Sources(
            fallback: MarkupWhitespace.compact(PageSources.fallback),
            preview: MarkupWhitespace.compact(PageSources.preview),
            notFound: MarkupWhitespace.compact(PageSources.notFound))
        languages = try PageWords.all().map { try LocalizedPages($0, sources: sources) }
    }

    /// The pages in the language `Accept-Language` prefers (English without one).
    @inline(__always)
    func preferred(acceptLanguage: UnsafeRawBufferPointer) -> LocalizedPages {
        languages[AcceptLanguage.preferred(acceptLanguage).rawValue]
    }
}

/// The pages of one language. A class: a page request takes its language's set (``Pages/preferred(acceptLanguage:)``)
/// with one reference, where a struct's copy retained each template's storage (a fourth template, the branded
/// not-found page, cost every desktop and preview page some 400 instructions).
final class LocalizedPages: Sendable {
    let language: PageLanguage
    let fallback: PageTemplate
    let preview: PageTemplate
    /// The not-found page without a program: ``notFoundBranded`` rendered with no field, once, so the generic `404`
    /// (an unknown public key, a code no program can be told from) is static bytes as it always was.
    let notFound: StaticText
    /// The not-found page of a link whose organization still names one program (``LinkTable/deadEndProgram``): its
    /// icon, name and the store badges for the caller's platform, with words saying the code is not active and the
    /// app can still be had. Rendered per request, only for such a `404`.
    let notFoundBranded: PageTemplate

    /// The pages' markup before words go in: ``PageSources`` as served (compacted).
    struct Sources {
        var fallback: String
        var preview: String
        var notFound: String
    }

    init(_ words: PageWords, sources: Sources) throws {
        language = words.language
        fallback = try PageTemplate(words.localize(sources.fallback))
        preview = try PageTemplate(words.localize(sources.preview))
        notFoundBranded = try PageTemplate(words.localize(sources.notFound))
        notFound = StaticText(Self.renderedWithoutFields(notFoundBranded))
    }

    /// A template rendered with no field having a value: what its `{{^field}}` sections hold.
    private static func renderedWithoutFields(_ template: PageTemplate) -> String {
        let capacity = template.maximumLength { _ in 0 }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        defer { memory.deallocate() }
        var writer = ByteWriter(base: memory, capacity: capacity)
        template.render(into: &writer) { _, _ in false }
        return String(decoding: UnsafeRawBufferPointer(start: memory, count: writer.count), as: UTF8.self)
    }
}
