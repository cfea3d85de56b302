/// The words the desktop page shows with its QR code, in English.
///
/// Kept apart from the template's markup, as one small set, so that they join the pages' per-language word
/// tables as two more entries each.
struct QRCodeWords: Sendable {
    /// The QR code's accessible name (the SVG itself holds no text).
    let label: String
    /// The line under the QR code.
    let caption: String

    static let english = QRCodeWords(label: "QR code of this link", caption: "Scan with your phone")
}
