import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// The configuration file that `tolt-edge import` reads and `tolt-edge export` writes.
///
/// Each optional field tells apart "absent" (keep what is stored) from `null` (clear it).
public struct ConfigDocument: Sendable, Equatable {
    /// A field of an update: absent, explicitly null, or a value.
    public enum Field<Value: Sendable & Equatable>: Sendable, Equatable {
        case absent
        case null
        case value(Value)

        var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    public struct Organization: Sendable, Equatable {
        public var id: String?
        public var name: String?
        public var publicKey: String?
        public var secretKey: String?
        /// `revenuecat.authorization`: the `Authorization` header value RevenueCat's webhook sends. A secret:
        /// `null` (or `"revenuecat": null`) removes it, absent keeps it.
        public var revenueCatAuthorization: Field<String> = .absent
        /// An IANA time zone name (`America/Los_Angeles`); absent keeps the stored one (`UTC` for a new one).
        public var timezone: String?
        public var programs: [Program] = []
    }

    public struct Program: Sendable, Equatable {
        public var id: String?
        public var name: String?
        public var claimWindowDays: Field<Int> = .absent
        public var deepLinkTemplate: Field<String> = .absent
        public var googlePlayURL: Field<String> = .absent
        public var appStoreURL: Field<String> = .absent
        /// `app_links.ios_app_ids` and `app_links.android_apps`, as written (``ConfigMerge`` checks them and
        /// normalizes fingerprints): absent keeps, `null` or `[]` clears, a value replaces the whole list.
        public var iosAppIDs: Field<[String]> = .absent
        public var androidApps: Field<[AndroidApp]> = .absent
        /// What the program pays partners: absent keeps the stored rule, `null` removes it, a value replaces it.
        public var commission: Field<Commission> = .absent
        /// Branding of the program's pages (``BrandingRules``): absent keeps, `null` clears, a value replaces.
        public var appName: Field<String> = .absent
        public var appIconURL: Field<String> = .absent
        public var brandColor: Field<String> = .absent
        public var ogImageURL: Field<String> = .absent
        public var ogDescription: Field<String> = .absent
        public var partners: [Partner] = []
    }

    /// A program's `commission` object as written; ``ConfigMerge`` checks the rule and turns it into a
    /// `CommissionRule`.
    ///
    ///     {"percent": 12.5, "recurring": true, "duration_months": 12}    {"fixed_cents": 500, "recurring": false}
    public struct Commission: Sendable, Equatable {
        /// The text of the `percent` number exactly as written (`12.5`, `20`), so no floating point rounds it.
        public var percent: String?
        public var fixedCents: Int?
        /// `nil` when left out: recurring.
        public var recurring: Bool?
        /// `nil` (left out or `null`): no limit.
        public var durationMonths: Int?
    }

    public struct Partner: Sendable, Equatable {
        public var id: String?
        public var name: String?
        public var status: String?
        public var codes: [Code] = []
    }

    public struct Code: Sendable, Equatable {
        public var code: String
        public var active: Bool
    }

    public var organizations: [Organization] = []

    /// The largest configuration file read, in bytes.
    public static let maximumSize = 64 << 20

    /// Parses the JSON form. Errors name the field, e.g. `organizations[0].programs[1].name: must be a string`.
    ///
    /// One UTF-8 byte-order mark before the JSON is skipped: Windows Notepad saves one at the start of a file, and
    /// the file was refused with "unexpected character at byte 0" (RFC 8259 §8.1 lets a parser ignore it).
    public init(json: [UInt8]) throws {
        guard json.count <= Self.maximumSize else {
            throw StoreError.invalidConfig("the file is larger than \(Self.maximumSize >> 20) MiB")
        }
        let root: JSONValue
        let byteOrderMark = json.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        do {
            root = try JSONParser.parse(Array(json.dropFirst(byteOrderMark)))
        } catch var failure as JSONParser.Failure {
            // Offsets are the file's: the mark skipped counts.
            failure.offset += byteOrderMark
            throw StoreError.invalidConfig("not valid JSON: \(failure)")
        } catch {
            throw StoreError.invalidConfig("not valid JSON: \(error)")
        }
        let reader = JSONFieldReader(path: "")
        let top = try reader.object(root, allowed: ["organizations"])
        organizations = try reader.array(top["organizations"], at: "organizations", required: true) {
            try Self.organization($0, path: $1)
        }
    }

    /// Reads and parses a configuration file; `-` reads standard input.
    public init(file path: String) throws {
        let read =
            path == "-"
            ? FileSystem.readBytes(descriptor: STDIN_FILENO, limit: Self.maximumSize)
            : FileSystem.readBytes(path, limit: Self.maximumSize)
        guard let bytes = read else {
            throw StoreError.io("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        try self.init(json: bytes)
    }

    init(organizations: [Organization]) {
        self.organizations = organizations
    }

    private static func organization(_ value: JSONValue, path: String) throws -> Organization {
        let reader = JSONFieldReader(path: path)
        let object = try reader.object(
            value, allowed: ["id", "name", "public_key", "secret_key", "revenuecat", "timezone", "programs"])
        var organization = Organization()
        organization.id = try reader.string(object, "id")
        organization.name = try reader.string(object, "name")
        organization.publicKey = try reader.string(object, "public_key")
        // An organization always has a secret key: `null` cannot clear it, and reading it as "left out" kept the old
        // key without a word for someone who meant to rotate it.
        if object["secret_key"] == .null {
            throw StoreError.invalidConfig(
                "\(reader.path("secret_key")): cannot be null: an organization always has a secret key; leave it out to"
                    + " keep the stored one, or give a new one to replace it")
        }
        organization.secretKey = try reader.string(object, "secret_key")
        organization.timezone = try reader.string(object, "timezone")
        switch object["revenuecat"] {
        case nil:
            break
        case .null?:
            organization.revenueCatAuthorization = .null
        case let revenueCat?:
            let revenueCatReader = JSONFieldReader(path: reader.path("revenuecat"))
            let revenueCatObject = try revenueCatReader.object(revenueCat, allowed: ["authorization"])
            organization.revenueCatAuthorization = try revenueCatReader.field(
                revenueCatObject, "authorization", revenueCatReader.string)
        }
        organization.programs = try reader.array(object["programs"], at: reader.path("programs")) {
            try program($0, path: $1)
        }
        return organization
    }

    private static func program(_ value: JSONValue, path: String) throws -> Program {
        let reader = JSONFieldReader(path: path)
        let object = try reader.object(
            value,
            allowed: [
                "id", "name", "claim_window_days", "app_links", "commission", "app_name", "app_icon_url", "brand_color",
                "og_image_url", "og_description", "partners",
            ])
        var program = Program()
        program.id = try reader.string(object, "id")
        program.name = try reader.string(object, "name")
        program.claimWindowDays = try reader.field(object, "claim_window_days") { try reader.integer($0, $1) }
        switch object["app_links"] {
        case nil:
            break
        case .null?:
            program.deepLinkTemplate = .null
            program.googlePlayURL = .null
            program.appStoreURL = .null
            program.iosAppIDs = .null
            program.androidApps = .null
        case let links?:
            let linkReader = JSONFieldReader(path: reader.path("app_links"))
            let linkObject = try linkReader.object(
                links,
                allowed: ["deep_link_template", "google_play_url", "app_store_url", "ios_app_ids", "android_apps"])
            program.deepLinkTemplate = try linkReader.field(linkObject, "deep_link_template", linkReader.string)
            program.googlePlayURL = try linkReader.field(linkObject, "google_play_url", linkReader.string)
            program.appStoreURL = try linkReader.field(linkObject, "app_store_url", linkReader.string)
            program.iosAppIDs = try linkReader.field(linkObject, "ios_app_ids") { value, path in
                try linkReader.array(value, at: path, linkReader.string)
            }
            program.androidApps = try linkReader.field(linkObject, "android_apps") { value, path in
                try linkReader.array(value, at: path) { try androidApp($0, path: $1) }
            }
        }
        program.commission = try reader.field(object, "commission") { try commission($0, path: $1) }
        program.appName = try reader.field(object, "app_name", reader.string)
        program.appIconURL = try reader.field(object, "app_icon_url", reader.string)
        program.brandColor = try reader.field(object, "brand_color", reader.string)
        program.ogImageURL = try reader.field(object, "og_image_url", reader.string)
        program.ogDescription = try reader.field(object, "og_description", reader.string)
        program.partners = try reader.array(object["partners"], at: reader.path("partners")) {
            try partner($0, path: $1)
        }
        return program
    }

    /// `{"package_name":"com.acme.app","sha256_cert_fingerprints":["14:6D:…"]}`, both required.
    private static func androidApp(_ value: JSONValue, path: String) throws -> AndroidApp {
        let reader = JSONFieldReader(path: path)
        let object = try reader.object(value, allowed: ["package_name", "sha256_cert_fingerprints"])
        guard let packageName = try reader.string(object, "package_name") else {
            throw StoreError.invalidConfig("\(reader.path("package_name")): is required")
        }
        let fingerprints = try reader.array(
            object["sha256_cert_fingerprints"], at: reader.path("sha256_cert_fingerprints"), required: true,
            reader.string)
        return AndroidApp(packageName: packageName, fingerprints: fingerprints)
    }

    private static func commission(_ value: JSONValue, path: String) throws -> Commission {
        let reader = JSONFieldReader(path: path)
        let object = try reader.object(value, allowed: ["percent", "fixed_cents", "recurring", "duration_months"])
        var commission = Commission()
        switch object["percent"] {
        case nil, .null?: break
        case .number(let text)?: commission.percent = text
        case let other?:
            throw StoreError.invalidConfig("\(reader.path("percent")): must be a number, not \(other.typeName)")
        }
        commission.fixedCents = try reader.field(object, "fixed_cents", reader.integer).value
        commission.recurring = try reader.bool(object, "recurring")
        commission.durationMonths = try reader.field(object, "duration_months", reader.integer).value
        return commission
    }

    private static func partner(_ value: JSONValue, path: String) throws -> Partner {
        let reader = JSONFieldReader(path: path)
        let object = try reader.object(value, allowed: ["id", "name", "status", "codes"])
        var partner = Partner()
        partner.id = try reader.string(object, "id")
        partner.name = try reader.string(object, "name")
        partner.status = try reader.string(object, "status")
        partner.codes = try reader.array(object["codes"], at: reader.path("codes")) { value, path in
            let codeReader = JSONFieldReader(path: path)
            let codeObject = try codeReader.object(value, allowed: ["code", "active"])
            guard let code = try codeReader.string(codeObject, "code") else {
                throw StoreError.invalidConfig("\(codeReader.path("code")): is required")
            }
            return Code(code: code, active: try codeReader.bool(codeObject, "active") ?? true)
        }
        return partner
    }
}

/// Reads typed fields out of parsed JSON, naming the path of whatever is wrong.
struct JSONFieldReader {
    let base: String

    init(path: String) { base = path }

    func path(_ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }

    func object(_ value: JSONValue, allowed: Set<String>) throws -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw StoreError.invalidConfig("\(base.isEmpty ? "the document" : base): must be an object")
        }
        var object: [String: JSONValue] = [:]
        for member in members {
            // Any name the file holds, quoted as errors quote input: an unknown one of 1 MB was echoed whole, and
            // one holding ESC, CR or LF reached the terminal as those bytes.
            guard allowed.contains(member.key) else {
                throw StoreError.invalidConfig("\(path(QuotedText.shown(member.key))): is not a known field")
            }
            guard object[member.key] == nil else {
                throw StoreError.invalidConfig("\(path(QuotedText.shown(member.key))): appears twice")
            }
            object[member.key] = member.value
        }
        return object
    }

    func string(_ object: [String: JSONValue], _ key: String) throws -> String? {
        guard let value = object[key], value != .null else { return nil }
        return try string(value, path(key))
    }

    func string(_ value: JSONValue, _ path: String) throws -> String {
        guard case .string(let text) = value else {
            throw StoreError.invalidConfig("\(path): must be a string, not \(value.typeName)")
        }
        return text
    }

    func integer(_ value: JSONValue, _ path: String) throws -> Int {
        guard let integer = value.integer else {
            throw StoreError.invalidConfig("\(path): must be an integer, not \(value.typeName)")
        }
        return integer
    }

    func bool(_ object: [String: JSONValue], _ key: String) throws -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?: throw StoreError.invalidConfig("\(path(key)): must be true or false, not \(other.typeName)")
        }
    }

    func field<T>(_ object: [String: JSONValue], _ key: String, _ read: (JSONValue, String) throws -> T) throws
        -> ConfigDocument.Field<T>
    {
        guard let value = object[key] else { return .absent }
        if value == .null { return .null }
        return .value(try read(value, path(key)))
    }

    func array<T>(
        _ value: JSONValue?, at path: String, required: Bool = false, _ element: (JSONValue, String) throws -> T
    ) throws -> [T] {
        switch value {
        case nil, .null?:
            if required { throw StoreError.invalidConfig("\(path): is required") }
            return []
        case .array(let items)?:
            return try items.enumerated().map { try element($1, "\(path)[\($0)]") }
        case let other?:
            throw StoreError.invalidConfig("\(path): must be an array, not \(other.typeName)")
        }
    }
}
