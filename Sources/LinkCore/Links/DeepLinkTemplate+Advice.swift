/// What a valid template may still get wrong for the people who tap its links: the importer warns with it and the
/// dashboard's tracking page shows it, and neither refuses, since an app may read its links its own way.
extension DeepLinkTemplate {
    /// The query parameters `Tolt.claim(url:)` reads (the SDK's `ClaimTarget`): a template must fill one of them
    /// for the SDK to claim anything from the link that opened the app. The edge adds no parameter of its own.
    public static let clickParameter = "tolt_click"
    public static let codeParameter = "tolt_code"

    /// Whether the template's query has `tolt_click={click_id}` or `tolt_code={code}`, a parameter whose whole value
    /// is the placeholder, so that `Tolt.claim(url:)` reads the click or the code from the links it makes.
    public var hasClaimParameter: Bool {
        // The template's text with each placeholder as a control byte, which no template may hold.
        var shape: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .literal(let bytes): shape += bytes
            case .code: shape.append(0x01)
            case .clickID: shape.append(0x02)
            }
        }
        // The query: from the first `?` before the fragment (`#`) to the fragment.
        let end = shape.firstIndex(of: 0x23) ?? shape.endIndex
        guard let question = shape[..<end].firstIndex(of: 0x3F) else { return false }
        for pair in shape[(question + 1)..<end].split(separator: 0x26) {
            let parts = pair.split(separator: 0x3D, maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 1 else { continue }
            let name = Self.decoded(Array(parts[0]))
            if (name == Self.clickParameter && parts[1].first == 0x02)
                || (name == Self.codeParameter && parts[1].first == 0x01)
            {
                return true
            }
        }
        return false
    }

    /// A query parameter's name with its escapes decoded, as the SDK reads it; `nil` when an escape is malformed.
    private static func decoded(_ name: [UInt8]) -> String? {
        var output = [UInt8](repeating: 0, count: name.count)
        let length = name.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { PercentEncoding.decodeSegment(input, into: $0) }
        }
        return length.map { String(decoding: output[..<$0], as: UTF8.self) }
    }

    /// The warnings for this template, each a clause that follows the field's name: a scheme only the app opens
    /// (every phone is sent there, with the app or without it), and a query without a parameter the SDK reads.
    public var advice: [String] {
        var advice: [String] = []
        if !isWebAddress {
            advice.append(
                "is a scheme only the app opens: every phone is sent to it whether the app is installed or not, and a"
                    + " phone without the app gets an error (iPhone) or nothing (Android), never the code page or a"
                    + " store; for links shared with people who may not have the app, use an https:// universal link"
                    + " or App Link, whose page the phone opens where the app is not")
        }
        if !hasClaimParameter {
            advice.append(
                "has no \(Self.codeParameter)={code} or \(Self.clickParameter)={click_id} in its query: the Tolt SDK's"
                    + " claim(url:) reads only those, so it claims nothing from these links (an app that reads its own"
                    + " parameters can ignore this)")
        }
        return advice
    }
}
