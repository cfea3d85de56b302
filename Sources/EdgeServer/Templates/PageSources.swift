/// The HTML pages, byte for byte as written in `fallback.html`, `preview.html` and `not-found.html` beside this
/// file, and their words (`Words/words-<language>.txt`).
///
/// SwiftPM embeds those files in the binary (`.embedInCode` in Package.swift generates the internal
/// `PackageResources`), so the server reads no file at run time and an edited page reaches the binary with a
/// plain build: there is no generated Swift to keep in step.
enum PageSources {
    static let fallback = text(PackageResources.fallback_html, name: "fallback.html")
    static let preview = text(PackageResources.preview_html, name: "preview.html")
    static let notFound = text(PackageResources.not_found_html, name: "not-found.html")
    /// The dashboard's frame (navigation, styles, the copy script) and its sign-in page (`Dashboard/`).
    static let dashboardLayout = text(PackageResources.layout_html, name: "Dashboard/layout.html")
    static let dashboardSignIn = text(PackageResources.sign_in_html, name: "Dashboard/sign-in.html")

    /// Decodes a language's embedded words (``PageLanguage/wordsSource``).
    static func words(_ bytes: [UInt8], name: String) -> String { text(bytes, name: name) }

    /// Decodes an embedded page. A page that is not UTF-8 is a defect in the checked-in files, so it stops the
    /// server at start-up (and fails the tests) rather than being served with replacement characters.
    private static func text(_ bytes: [UInt8], name: String) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { fatalError("\(name) is not UTF-8") }
        return text
    }
}
