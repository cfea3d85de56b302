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

/// The pages of one language.
struct LocalizedPages: Sendable {
    let language: PageLanguage
    let fallback: PageTemplate
    let preview: PageTemplate
    let notFound: StaticText

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
        notFound = StaticText(try words.localize(sources.notFound))
    }
}
