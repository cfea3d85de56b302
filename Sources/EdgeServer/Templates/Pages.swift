/// The compiled pages, one set per language: the words are put into the markup here, at start-up
/// (``PageWords``), so a request only picks its language's set (``AcceptLanguage``).
struct Pages: Sendable {
    /// One set per ``PageLanguage``, by raw value.
    let languages: [LocalizedPages]

    /// Compiled once per process: the not-found pages' text lives as long as the process (``StaticText``), so
    /// servers started and stopped in one process share it instead of each leaking a copy.
    static let standard = Result { try Pages() }

    private init() throws {
        languages = try PageWords.all().map { try LocalizedPages($0) }
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

    init(_ words: PageWords) throws {
        language = words.language
        fallback = try PageTemplate(words.localize(PageSources.fallback))
        preview = try PageTemplate(words.localize(PageSources.preview))
        notFound = StaticText(try words.localize(PageSources.notFound))
    }
}
