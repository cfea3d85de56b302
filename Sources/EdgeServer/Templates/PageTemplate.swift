import LinkCore

/// A value a page template can show.
enum PageField: Int, CaseIterable, Sendable {
    case code, partnerName, programName, organizationName, appStoreURL, googlePlayURL, linkURL
    /// `app_name`, or else the program's name: never empty.
    case appName
    case appIconURL, brandColor, ogImageURL, ogDescription
    /// The colour of text on the brand colour: present exactly when `brand_color` is.
    case brandTextColor
    /// The edge and focus ring of the brand colour's button on the light page and on the dark one (each the brand
    /// colour, or the page's text colour where the brand colour would not stand out): present exactly when
    /// `brand_color` is.
    case brandEdgeColor, brandDarkEdgeColor
    /// The desktop page's QR code: SVG markup the server drew (``QRCodeSVG``), written as is. Its label and caption
    /// are words of the page (``PageWords``), not fields.
    case qrSVG
    /// The deep-link template filled in for this tap (its click id too), on a desktop's page when the template is a
    /// scheme only the app opens: the page's script follows it on an iPad, which asks for desktop pages as a Mac.
    case appLink

    init?(name: String) {
        switch name {
        case "code": self = .code
        case "partner_name": self = .partnerName
        case "program_name": self = .programName
        case "organization_name": self = .organizationName
        case "app_store_url": self = .appStoreURL
        case "google_play_url": self = .googlePlayURL
        case "link_url": self = .linkURL
        case "app_name": self = .appName
        case "app_icon_url": self = .appIconURL
        case "brand_color": self = .brandColor
        case "brand_text_color": self = .brandTextColor
        case "brand_edge_color": self = .brandEdgeColor
        case "brand_dark_edge_color": self = .brandDarkEdgeColor
        case "og_image_url": self = .ogImageURL
        case "og_description": self = .ogDescription
        case "qr_svg": self = .qrSVG
        case "app_link": self = .appLink
        default: return nil
        }
    }

    /// Whether the field's value is markup the server made, written without escaping (which it needs none of:
    /// it holds no text from a program, partner or visitor).
    var isMarkup: Bool { self == .qrSVG }
}

/// An HTML template compiled once at start-up: `{{field}}` shows a value HTML-escaped (a markup field as it is),
/// `{{field|bidi}}` the same between Unicode's isolates when it holds a right-to-left letter (``BidiIsolation``: for
/// `<title>` and attributes, which cannot hold a `<bdi>`), `{{#field}}…{{/field}}` shows its content only when the
/// field has a value, and `{{^field}}…{{/field}}` only when it has none.
struct PageTemplate: Sendable {
    enum Step: Sendable {
        case literal(Range<Int>)
        case field(PageField)
        /// A `{{field|bidi}}`.
        case isolatedField(PageField)
        /// Skips to the step after `end`, the section's last step (itself when empty), when the field has no
        /// value.
        case section(PageField, end: Int)
        /// Skips to the step after `end` when the field has a value.
        case invertedSection(PageField, end: Int)
    }

    private let text: [UInt8]
    private let steps: [Step]
    /// How many times each field is shown, for sizing the output.
    private let occurrences: [Int]
    /// How many of those are `{{field|bidi}}`, each of which may take the 6 bytes of two isolates.
    private let isolatedOccurrences: Int

    static let isolatedSuffix = "|bidi"

    init(_ source: String) throws {
        text = Array(source.utf8)
        var steps: [Step] = []
        var open: [(field: PageField, step: Int, inverted: Bool)] = []
        var occurrences = [Int](repeating: 0, count: PageField.allCases.count)
        var isolatedOccurrences = 0
        var index = 0
        var literalStart = 0
        while index < text.count {
            guard text[index] == 0x7B, index + 1 < text.count, text[index + 1] == 0x7B,
                let close = Self.find(Array("}}".utf8), in: text, from: index + 2)
            else {
                index += 1
                continue
            }
            if literalStart < index { steps.append(.literal(literalStart..<index)) }
            var name = String(decoding: text[index + 2..<close], as: UTF8.self)
            let marker = name.first
            if marker == "#" || marker == "^" || marker == "/" { name.removeFirst() }
            let isolated = marker != "#" && marker != "^" && marker != "/" && name.hasSuffix(Self.isolatedSuffix)
            if isolated { name.removeLast(Self.isolatedSuffix.count) }
            guard let field = PageField(name: name) else { throw TemplateError(reason: "unknown field \(name)") }
            switch marker {
            case "#", "^":
                open.append((field, steps.count, marker == "^"))
                steps.append(.section(field, end: -1))
            case "/":
                guard let last = open.popLast(), last.field == field else {
                    throw TemplateError(reason: "unbalanced section \(name)")
                }
                steps[last.step] =
                    last.inverted
                    ? .invertedSection(field, end: steps.count - 1) : .section(field, end: steps.count - 1)
            default:
                occurrences[field.rawValue] += 1
                if isolated { isolatedOccurrences += 1 }
                steps.append(isolated ? .isolatedField(field) : .field(field))
            }
            index = close + 2
            literalStart = index
        }
        if literalStart < text.count { steps.append(.literal(literalStart..<text.count)) }
        guard open.isEmpty else { throw TemplateError(reason: "unclosed section") }
        self.steps = steps
        self.occurrences = occurrences
        self.isolatedOccurrences = isolatedOccurrences
    }

    /// The most bytes a rendering can take when each field's raw value is at most `length(field)` bytes.
    func maximumLength(_ length: (PageField) -> Int) -> Int {
        var total = text.count + isolatedOccurrences * 6
        for field in PageField.allCases {
            let expansion = field.isMarkup ? 1 : HTMLEscaping.maximumExpansion
            total += occurrences[field.rawValue] * length(field) * expansion
        }
        return total
    }

    /// Renders into `writer`; `value` writes a field's raw bytes through the escaping writer it is given and
    /// returns whether the field has a value.
    func render(into writer: inout ByteWriter, value: (PageField, inout EscapingWriter) -> Bool) {
        text.withUnsafeBytes { text in
            var index = 0
            while index < steps.count {
                switch steps[index] {
                case .literal(let range):
                    writer.write(UnsafeRawBufferPointer(rebasing: text[range]))
                case .field(let field):
                    var escaping = EscapingWriter(writer: writer)
                    _ = value(field, &escaping)
                    writer = escaping.writer
                case .isolatedField(let field):
                    let start = writer.count
                    var escaping = EscapingWriter(writer: writer)
                    _ = value(field, &escaping)
                    writer = escaping.writer
                    BidiIsolation.isolate(&writer, from: start)
                case .section(let field, let end):
                    var probe = EscapingWriter(writer: ByteWriter(base: writer.base, capacity: 0))
                    if !value(field, &probe) { index = end }
                case .invertedSection(let field, let end):
                    var probe = EscapingWriter(writer: ByteWriter(base: writer.base, capacity: 0))
                    if value(field, &probe) { index = end }
                }
                index += 1
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// Writes values into a page, HTML-escaped on the way.
struct EscapingWriter {
    var writer: ByteWriter

    @inline(__always)
    mutating func write<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        HTMLEscaping.write(bytes, into: &writer)
    }

    /// Writes markup the server made (a ``PageField/isMarkup`` field) as it is.
    @inline(__always)
    mutating func writeMarkup(_ bytes: UnsafeRawBufferPointer) {
        writer.write(bytes)
    }
}

/// A template that does not compile.
struct TemplateError: Error, CustomStringConvertible {
    var reason: String
    var description: String { "template: \(reason)" }
}
