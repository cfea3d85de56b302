/// An Android app that may open a host's links directly (an App Link): its package and the SHA-256 fingerprints of
/// the certificates it is signed with, as Digital Asset Links names them (`package_name`,
/// `sha256_cert_fingerprints`).
public struct AndroidApp: Sendable, Equatable {
    /// `com.acme.app`.
    public var packageName: String
    /// Each 32 bytes as 64 uppercase hex digits in pairs joined by `:` (`14:6D:E9:…`), as `keytool -list` and
    /// Google's documentation write them.
    public var fingerprints: [String]

    public init(packageName: String, fingerprints: [String]) {
        self.packageName = packageName
        self.fingerprints = fingerprints
    }
}

/// The rules for a program's apps that open its links directly: iOS universal links (`ios_app_ids`) and Android
/// App Links (`android_apps`). The apps are published in the host's association files (``AppAssociation``), which a
/// phone's system reads to decide which installed app opens a link, so a value is checked the way the system would
/// read it: a malformed one would be ignored by the phone without a word.
public enum AppLinkRules {
    /// The most iOS app ids one program lists.
    public static let maximumIOSAppIDs = 10
    /// The most Android apps one program lists.
    public static let maximumAndroidApps = 10
    /// The most certificate fingerprints one Android app lists (a release key and Play's app signing key, an
    /// upload key, a debug key: a handful in practice).
    public static let maximumFingerprints = 10
    /// The longest bundle id accepted (Apple names no limit beyond the characters; App Store Connect takes 155).
    public static let maximumBundleIDLength = 155
    /// The longest Android package name accepted.
    public static let maximumPackageNameLength = 255
    /// The largest association file the host serves, each of the two: Apple's documented limit for
    /// `apple-app-site-association` (128 KB), which the import holds `assetlinks.json` to as well.
    public static let maximumDocumentSize = 128 * 1024

    /// Checks an Apple app id, `<team id>.<bundle id>`: a team id (the App ID prefix) of 10 uppercase letters or
    /// digits, a dot, and a bundle id of 1–155 ASCII letters, digits, `-` and `.` (Apple's characters), in segments
    /// that are not empty (no leading, trailing or doubled dot).
    public static func validateIOSAppID(_ id: String) throws(ConfigValidationError) {
        let bytes = Array(id.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "."),
            bytes[..<10].allSatisfy({ isDigit($0) || isUpper($0) })
        else {
            throw .invalid(
                "must be <team id>.<bundle id>, the team id 10 uppercase letters or digits (ABCDE12345.com.acme.app)")
        }
        let bundle = bytes[11...]
        guard bundle.count <= maximumBundleIDLength,
            bundle.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            throw .invalid(
                "must have a bundle id of 1–\(maximumBundleIDLength) ASCII letters, digits, - and . after the team id")
        }
        guard bundle.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty })
        else { throw .invalid("must have a bundle id without an empty segment (a leading, trailing or doubled dot)") }
    }

    /// Checks an Android package name (Android's `applicationId` rules): at least two segments joined by `.`, each an
    /// ASCII letter followed by letters, digits or `_`; at most 255 bytes.
    public static func validatePackageName(_ name: String) throws(ConfigValidationError) {
        let bytes = Array(name.utf8)
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard bytes.count <= maximumPackageNameLength, segments.count >= 2,
            segments.allSatisfy({ segment in
                guard let first = segment.first, isLetter(first) else { return false }
                return segment.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }
            })
        else {
            throw .invalid(
                "must be an Android package name: two or more segments joined by dots, each a letter followed by "
                    + "letters, digits or _ (com.acme.app), at most \(maximumPackageNameLength) bytes")
        }
    }

    /// A certificate fingerprint in the form Digital Asset Links publishes: 32 bytes as 64 hex digits in pairs joined
    /// by `:`. Lowercase hex is taken (`keytool` and `openssl` print uppercase, other tools lowercase), and so are
    /// the 64 digits without colons that `apksigner verify --print-certs` prints; either is given back in the form
    /// Google documents, uppercase pairs joined by colons. Anything else (another length, other separators, pairs
    /// joined in part) is refused.
    public static func normalizedFingerprint(_ text: String) throws(ConfigValidationError) -> String {
        let bytes = Array(text.utf8)
        var pairs = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map(Array.init)
        if pairs.count == 1 && bytes.count == 64 {
            pairs = stride(from: 0, to: 64, by: 2).map { Array(bytes[$0..<$0 + 2]) }
        }
        guard pairs.count == 32, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy({ ASCII.hexValue($0) != nil }) })
        else {
            throw .invalid(
                "must be a SHA-256 certificate fingerprint: 32 bytes as hex pairs joined by colons (14:6D:E9:…:E5), as"
                    + " keytool -list -v prints it, or the 64 hex digits apksigner prints")
        }
        return ASCII.uppercased(pairs.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ":"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isUpper(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isUpper(byte &- 0x20) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}

extension AndroidApp {
    /// Writes `apps` in the import form, `[{"package_name":…,"sha256_cert_fingerprints":[…]}]`: the export's and the
    /// store's.
    public static func write(_ apps: [AndroidApp], into json: inout JSONWriter) {
        json.array(apps) { app, json in
            json.object {
                $0.string("package_name", app.packageName)
                $0.member("sha256_cert_fingerprints") {
                    $0.array(app.fingerprints) { fingerprint, json in json.string(fingerprint) }
                }
            }
        }
    }
}
