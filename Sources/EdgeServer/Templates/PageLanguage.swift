/// A language the pages are written in. English is the default: every page falls back to it.
enum PageLanguage: Int, CaseIterable, Sendable {
    case english, german, french, spanish, portuguese

    /// The BCP 47 tag `<html lang>` carries, and the primary subtag `Accept-Language` names it by.
    var tag: String {
        switch self {
        case .english: "en"
        case .german: "de"
        case .french: "fr"
        case .spanish: "es"
        case .portuguese: "pt"
        }
    }

    /// The language's words, as embedded from `Words/words-<tag>.txt`.
    var wordsSource: String {
        switch self {
        case .english: PageSources.words(PackageResources.words_en_txt, name: "words-en.txt")
        case .german: PageSources.words(PackageResources.words_de_txt, name: "words-de.txt")
        case .french: PageSources.words(PackageResources.words_fr_txt, name: "words-fr.txt")
        case .spanish: PageSources.words(PackageResources.words_es_txt, name: "words-es.txt")
        case .portuguese: PageSources.words(PackageResources.words_pt_txt, name: "words-pt.txt")
        }
    }

    /// The language whose primary subtag is the two ASCII letters `first` `second` in any case (`DE`, `de`), or
    /// `nil`. Compares bytes, so that the link path reads `Accept-Language` without making a `String`.
    @inline(__always)
    static func primary(_ first: UInt8, _ second: UInt8) -> PageLanguage? {
        switch (first | 0x20, second | 0x20) {
        case (0x65, 0x6E): .english  // en
        case (0x64, 0x65): .german  // de
        case (0x66, 0x72): .french  // fr
        case (0x65, 0x73): .spanish  // es
        case (0x70, 0x74): .portuguese  // pt
        default: nil
        }
    }
}
