/// The rules for a program's branding fields, shared by the importer (which refuses a bad value) and
/// ``ProgramSettings`` (which drops a stored value that breaks them, so a page never shows it).
///
/// Every value is shown on a page, so every size is bounded: with each field at its longest the fallback and
/// preview pages stay under 20 KB.
public enum BrandingRules {
    /// The longest `app_name`, in characters (App Store and Google Play allow 30).
    public static let maximumAppNameLength = 60
    /// The longest `og_description`, in characters (previews cut at about 200).
    public static let maximumDescriptionLength = 300
    /// The longest `app_icon_url` or `og_image_url`, in bytes.
    public static let maximumImageURLLength = 1024

    /// 1–60 characters of display text (``DisplayTextRules``).
    public static func validateAppName(_ name: String) throws(ConfigValidationError) {
        try validateText(name, maximumLength: maximumAppNameLength)
    }

    /// 1–300 characters of display text (``DisplayTextRules``).
    public static func validateDescription(_ text: String) throws(ConfigValidationError) {
        try validateText(text, maximumLength: maximumDescriptionLength)
    }

    /// An `https://` URL (``URLRules/validatePageURL(_:maximumPageLength:asStored:)``, `asStored` passed on) of at
    /// most 1024 bytes, on the page too: an image a page makes the visitor's browser (or a preview fetcher) load, so
    /// never over plain HTTP.
    public static func validateImageURL(_ url: String, asStored: Bool = false) throws(ConfigValidationError) {
        guard url.utf8.count <= maximumImageURLLength else {
            throw .invalid("must be at most \(maximumImageURLLength) bytes")
        }
        try URLRules.validatePageURL(url, maximumPageLength: maximumImageURLLength, asStored: asStored)
        guard URLRules.browserScheme(Array(url.utf8)) == "https" else { throw .invalid("must be an https:// URL") }
    }

    /// `#rrggbb`, six hexadecimal digits in either case.
    public static func validateColor(_ color: String) throws(ConfigValidationError) {
        guard BrandColor(color) != nil else { throw .invalid("must be a colour written #rrggbb, e.g. #3b5bdb") }
    }

    private static func validateText(_ text: String, maximumLength: Int) throws(ConfigValidationError) {
        try DisplayTextRules.validate(text, maximumCharacters: maximumLength)
    }
}

/// A brand colour, `#rrggbb`, and the colour of text written on it.
public struct BrandColor: Sendable, Equatable {
    public let red: UInt8
    public let green: UInt8
    public let blue: UInt8

    /// Parses `#rrggbb`; `nil` for anything else (`#123`, `#12345`, `red`, `#ggg000`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == 0x23 else { return nil }
        var channels: [UInt8] = []
        for index in stride(from: 1, to: 7, by: 2) {
            guard let high = ASCII.hexValue(bytes[index]), let low = ASCII.hexValue(bytes[index + 1]) else {
                return nil
            }
            channels.append(high << 4 | low)
        }
        red = channels[0]
        green = channels[1]
        blue = channels[2]
    }

    /// `#rrggbb` in lower case: the form pages write.
    public var text: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [0x23]
        for channel in [red, green, blue] {
            bytes.append(digits[Int(channel >> 4)])
            bytes.append(digits[Int(channel & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The dark text colour pages write on a light brand colour: black, so that every colour gets a text colour at
    /// 4.5:1 (WCAG 2's text contrast). With black and white, the worse of the two is best at 4.58:1, on a luminance
    /// of 0.18 (`#767676`); with `#111111` it was 4.3:1 there, so a mid-grey button (`#777777`) had neither.
    public static let darkText = "#000000"
    /// The text colour pages write on a dark brand colour.
    public static let lightText = "#ffffff"

    /// Whether dark text (``darkText``) reads better on this colour than white: the one with the higher WCAG 2
    /// contrast ratio wins. A light brand colour (yellow, mint, white) thus never carries unreadable white text.
    public var prefersDarkText: Bool {
        let luminance = relativeLuminance
        let againstWhite = 1.05 / (luminance + 0.05)
        let againstDark = (luminance + 0.05) / 0.05
        return againstDark > againstWhite
    }

    /// The text colour for this background: ``darkText`` or ``lightText``.
    public var textColor: String { prefersDarkText ? Self.darkText : Self.lightText }

    /// The fallback page's background in the light colour scheme: every browser's light canvas, under black text.
    public static let lightPage = BrandColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    /// The fallback page's background in the dark colour scheme: Chromium's dark canvas, which `fallback.html` sets
    /// for every browser (Firefox's and Safari's are other greys), so that the page is the colour its controls'
    /// edges were chosen against.
    public static let darkPage = BrandColor(red: 0x12, green: 0x12, blue: 0x12)
    /// The contrast a control's shape and focus ring need against the page: WCAG 2.2's non-text contrast (1.4.11).
    public static let minimumEdgeContrast = 3.0

    /// The colour of a control's edge and focus ring drawn in this colour on the light page (``lightPage``): this
    /// colour when it stands out from the page at ``minimumEdgeContrast``, else the page's text colour. A white (or
    /// very light) brand colour's button thus keeps a visible border and ring on white.
    public var lightPageEdgeColor: String { edgeColor(on: Self.lightPage, pageText: Self.darkText) }

    /// The same on the dark page (``darkPage``): a black (or very dark) brand colour's button gets a light edge.
    public var darkPageEdgeColor: String { edgeColor(on: Self.darkPage, pageText: Self.lightText) }

    private func edgeColor(on page: BrandColor, pageText: String) -> String {
        contrastRatio(with: page) >= Self.minimumEdgeContrast ? text : pageText
    }

    /// WCAG 2's contrast ratio between this colour and `other`, 1 (the same) to 21 (black and white).
    public func contrastRatio(with other: BrandColor) -> Double {
        let (lighter, darker) = (
            max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance)
        )
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// The colour of these channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// WCAG 2's relative luminance, 0 (black) to 1 (white).
    public var relativeLuminance: Double { Self.relativeLuminance(red, green, blue) }

    static func relativeLuminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Double {
        0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// sRGB to linear light: `((c + 0.055) / 1.055)^2.4` above the toe. LinkCore has no `pow`, so the power is
    /// `x² · x^0.4`, the fifth root of `x²` found by Newton's method (run once per program, when the link table is
    /// built).
    static func linear(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        if value <= 0.04045 { return value / 12.92 }
        let base = (value + 0.055) / 1.055
        let square = base * base
        var root = 1.0
        for _ in 0..<40 {
            let fourth = root * root * root * root
            root = (4 * root + square / fourth) / 5
        }
        return square * root
    }
}
