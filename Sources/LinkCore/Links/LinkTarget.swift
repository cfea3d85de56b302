/// The program settings a link needs, shared by every code of the program.
public final class ProgramSettings: Sendable {
    public let record: ProgramRecord
    public let organizationName: String
    /// Parsed once; `nil` when the program has no deep-link template.
    public let deepLinkTemplate: DeepLinkTemplate?
    /// The UTF-8 bytes of the organization id, which every click of the program records: kept here once
    /// rather than in each of the program's codes.
    public let organizationIDBytes: [UInt8]
    /// The UTF-8 bytes of the program id, kept once for the same reason.
    public let programIDBytes: [UInt8]
    /// The colour of text on the brand colour (``BrandColor/textColor``); `nil` without a brand colour.
    public let brandTextColor: String?
    /// The edge and focus ring of the brand colour's button on the light page (``BrandColor/lightPageEdgeColor``) and
    /// on the dark one (``BrandColor/darkPageEdgeColor``); `nil` without a brand colour.
    public let brandEdgeColors: (light: String, dark: String)?

    /// The name pages show for the app: `app_name`, or else the program's name.
    public var displayName: String { record.appName ?? record.name }

    public init(record: ProgramRecord, organizationName: String) {
        // The importer validated every URL; a value that fails here came from elsewhere (another tool writing
        // the store) and is ignored rather than sending people to a broken URL or splitting a header. A URL stored
        // before the rules a URL is only held to when written (ASCII only, `%` escapes) is kept: see `asStored`.
        var checked = record
        // A name stored before the display-text rule (or by another tool) is shown without what it now refuses.
        checked.name = DisplayTextRules.shown(record.name)
        checked.googlePlayURL = record.googlePlayURL.flatMap {
            (try? URLRules.validatePageURL($0, asStored: true)) != nil ? $0 : nil
        }
        checked.appStoreURL = record.appStoreURL.flatMap {
            (try? URLRules.validatePageURL($0, asStored: true)) != nil ? $0 : nil
        }
        checked.appName = record.appName.flatMap { (try? BrandingRules.validateAppName($0)) != nil ? $0 : nil }
        checked.appIconURL = record.appIconURL.flatMap {
            (try? BrandingRules.validateImageURL($0, asStored: true)) != nil ? $0 : nil
        }
        checked.ogImageURL = record.ogImageURL.flatMap {
            (try? BrandingRules.validateImageURL($0, asStored: true)) != nil ? $0 : nil
        }
        checked.ogDescription = record.ogDescription.flatMap {
            (try? BrandingRules.validateDescription($0)) != nil ? $0 : nil
        }
        let color = record.brandColor.flatMap(BrandColor.init)
        checked.brandColor = color?.text
        brandTextColor = color?.textColor
        brandEdgeColors = color.map { ($0.lightPageEdgeColor, $0.darkPageEdgeColor) }
        self.record = checked
        self.organizationName = DisplayTextRules.shown(organizationName)
        self.deepLinkTemplate = record.deepLinkTemplate.flatMap { try? DeepLinkTemplate($0) }
        organizationIDBytes = Array(record.organizationID.utf8)
        programIDBytes = Array(record.id.utf8)
    }
}

/// One code of one partner, with everything the link path writes precomputed.
public final class LinkTarget: Sendable {
    public let reference: UInt32
    public let organizationID: String
    public let partnerID: String
    public let partnerName: String
    /// The code as stored, with its original case.
    public let code: String
    /// Whether the code and its partner are both active.
    public let isActive: Bool
    public let program: ProgramSettings

    /// The deep-link template with `{code}` filled in, split at each `{click_id}`; `nil` without a template.
    public let redirectChunks: [[UInt8]]?
    /// Whether a desktop is sent to the template too: only a web address (``DeepLinkTemplate/isWebAddress``); a scheme
    /// only the app opens would leave a desktop, where the app is not, on an error or a blank tab.
    public let redirectsDesktops: Bool
    /// The Google Play URL up to the click id: `<url>?…&referrer=tolt_code%3D<code>%26tolt_click%3D`.
    public let playPrefix: [UInt8]?
    /// The UTF-8 bytes of the partner id: the link path records it with each click and copies these bytes
    /// rather than reading a `String` per click.
    public let partnerIDBytes: [UInt8]
    /// The UTF-8 bytes of the code as stored, for the same reason.
    public let codeBytes: [UInt8]
    /// `/a/<public_key>/<code>`, the code percent-encoded: the path of this code's link.
    public let linkPath: [UInt8]

    public init(code: CodeRecord, partner: PartnerRecord, program: ProgramSettings, publicKey: String) {
        reference = code.reference
        organizationID = program.record.organizationID
        partnerID = partner.id
        partnerName = DisplayTextRules.shown(partner.name)
        self.code = code.code
        isActive = code.active && partner.isActive
        self.program = program
        let encodedCode = PercentEncoding.encode(code.code.utf8)
        redirectChunks = program.deepLinkTemplate?.chunks(encodedCode: encodedCode)
        redirectsDesktops = program.deepLinkTemplate?.isWebAddress ?? false
        playPrefix = program.record.googlePlayURL.map { Self.playPrefix(url: $0, encodedCode: encodedCode) }
        linkPath = Array("/a/".utf8) + PercentEncoding.encode(publicKey.utf8) + [0x2F] + encodedCode
        partnerIDBytes = Array(partner.id.utf8)
        codeBytes = Array(code.code.utf8)
    }

    /// The UTF-8 bytes of the organization id, shared with the other codes of the program.
    @inlinable public var organizationIDBytes: [UInt8] { program.organizationIDBytes }

    /// The UTF-8 bytes of the program id, shared with the other codes of the program.
    @inlinable public var programIDBytes: [UInt8] { program.programIDBytes }

    /// The referrer is one percent-encoded value, so the app reads `tolt_code=SAM20&tolt_click=clk_…` from it;
    /// the code inside is encoded once more so that it cannot add parameters of its own.
    ///
    /// Play hands the app one `referrer`, so a Play URL that already has one (the app's own campaign,
    /// `referrer=utm_source%3Dnews`) does not get a second: its value leads the merged one,
    /// `referrer=utm_source%3Dnews%26tolt_code%3D…%26tolt_click%3D…`. The app's parameters come first and
    /// `tolt_click` last because the link path ends the URL with the click id, with nothing after it: the redirect
    /// stays this prefix and the id, with no per-tap work. A `tolt_code` or `tolt_click` already in the app's value
    /// (a URL copied from an earlier redirect) is dropped, so the SDK, which takes the first `tolt_click`, reads this
    /// tap's. Empty parameters are dropped; the rest of the query is kept as it is, in its order.
    ///
    /// The URL's bytes above ASCII are percent-encoded first, as a template's are (``DeepLinkTemplate``), so the
    /// redirect's `Location` is ASCII even for a URL stored before the import refused them (or by another tool).
    static func playPrefix(url: String, encodedCode: [UInt8]) -> [UInt8] {
        var bytes = PercentEncoding.encodeNonASCII(url.utf8)
        if let hash = bytes.firstIndex(of: 0x23) { bytes.removeSubrange(hash...) }
        var appReferrer: [ArraySlice<UInt8>] = []
        if let question = bytes.firstIndex(of: 0x3F) {
            let query = bytes[(question + 1)...]
            var kept: [UInt8] = Array(bytes[...question])
            for pair in query.split(separator: 0x26) {
                if pair.elementsEqual("referrer".utf8) { continue }
                if pair.starts(with: "referrer=".utf8) {
                    appReferrer += referrerParameters(pair.dropFirst(9))
                    continue
                }
                if kept.last != 0x3F { kept.append(0x26) }
                kept += pair
            }
            bytes = kept
            if bytes.last != 0x3F { bytes.append(0x26) }
        } else {
            bytes.append(0x3F)
        }
        bytes.append(contentsOf: "referrer=".utf8)
        for parameter in appReferrer {
            bytes += parameter
            bytes.append(contentsOf: "%26".utf8)
        }
        bytes.append(contentsOf: "tolt_code%3D".utf8)
        bytes.append(contentsOf: PercentEncoding.encode(encodedCode))
        bytes.append(contentsOf: "%26tolt_click%3D".utf8)
        return bytes
    }

    /// The parameters of a `referrer` value as the URL holds it (`utm_source%3Dnews%26utm_medium%3Demail`: split at
    /// each `%26`), without empty ones and without `tolt_code` and `tolt_click`, still encoded as they were.
    private static func referrerParameters(_ value: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var parameters: [ArraySlice<UInt8>] = []
        var start = value.startIndex
        var index = value.startIndex
        func take(_ end: Int) {
            let parameter = value[start..<end]
            if !parameter.isEmpty && !isToltParameter(parameter) { parameters.append(parameter) }
        }
        while index < value.endIndex {
            if value[index] == 0x25, value[index...].starts(with: "%26".utf8) {
                take(index)
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        take(value.endIndex)
        return parameters
    }

    /// Whether a referrer parameter is named `tolt_code` or `tolt_click` (followed by `%3D`, `=` or nothing).
    private static func isToltParameter(_ parameter: ArraySlice<UInt8>) -> Bool {
        for name in ["tolt_code", "tolt_click"] where parameter.starts(with: name.utf8) {
            let rest = parameter.dropFirst(name.utf8.count)
            if rest.isEmpty || rest.first == 0x3D || rest.prefix(3).elementsEqual("%3D".utf8)
                || rest.prefix(3).elementsEqual("%3d".utf8)
            {
                return true
            }
        }
        return false
    }
}
