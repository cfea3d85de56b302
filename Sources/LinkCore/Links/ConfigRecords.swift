/// The configuration as the store holds it: organizations, programs, partners and codes.
///
/// These plain values cross from the store to the link table; the link path never reads them directly.
public struct OrganizationRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var publicKey: String
    /// The digest of the organization's secret key (``SecretDigest``): the key itself is never stored.
    public var secretKeyDigest: String
    /// The digest of the value RevenueCat sends in the `Authorization` header of this organization's webhook;
    /// `nil` until set, and until then the webhook refuses every event. Never exported or listed.
    public var revenueCatAuthorizationDigest: String?
    /// The IANA time zone the dashboard's days are in (``TimeZoneName``); `UTC` unless an import set another.
    public var timezone: String

    /// A value with every field given; the secrets as digests (``SecretDigest/of(_:)``).
    public init(
        id: String, name: String, publicKey: String, secretKeyDigest: String,
        revenueCatAuthorizationDigest: String? = nil, timezone: String = "UTC"
    ) {
        self.id = id
        self.name = name
        self.publicKey = publicKey
        self.secretKeyDigest = secretKeyDigest
        self.revenueCatAuthorizationDigest = revenueCatAuthorizationDigest
        self.timezone = timezone
    }
}

/// A program of an organization, with its app-link settings.
public struct ProgramRecord: Sendable, Equatable {
    public var id: String
    public var organizationID: String
    public var name: String
    /// Claims are accepted up to this many days after the user was first seen; `nil` means no limit.
    public var claimWindowDays: Int?
    public var deepLinkTemplate: String?
    public var googlePlayURL: String?
    public var appStoreURL: String?
    /// What partners earn on their customers' purchases; `nil` pays nothing.
    public var commission: CommissionRule?
    /// The name the pages show for the app; `nil` shows the program's ``name``.
    public var appName: String?
    /// An `https://` URL of the app's icon, shown on the fallback page.
    public var appIconURL: String?
    /// `#rrggbb`: the colour of the fallback page's button (``BrandColor``).
    public var brandColor: String?
    /// An `https://` URL of the image link previews show (`og:image`).
    public var ogImageURL: String?
    /// The text link previews show (`og:description`); `nil` shows the standard invitation sentence.
    public var ogDescription: String?
    /// Apple app ids (`ABCDE12345.com.acme.app`) that open the organization's links directly where installed (iOS
    /// universal links, ``AppAssociation``); empty for none.
    public var iosAppIDs: [String]
    /// Android apps that open the host's links directly where installed (App Links, ``AppAssociation``); empty for
    /// none.
    public var androidApps: [AndroidApp]

    public init(
        id: String, organizationID: String, name: String, claimWindowDays: Int? = nil,
        deepLinkTemplate: String? = nil, googlePlayURL: String? = nil, appStoreURL: String? = nil,
        commission: CommissionRule? = nil, appName: String? = nil, appIconURL: String? = nil,
        brandColor: String? = nil, ogImageURL: String? = nil, ogDescription: String? = nil, iosAppIDs: [String] = [],
        androidApps: [AndroidApp] = []
    ) {
        self.id = id
        self.organizationID = organizationID
        self.name = name
        self.claimWindowDays = claimWindowDays
        self.deepLinkTemplate = deepLinkTemplate
        self.googlePlayURL = googlePlayURL
        self.appStoreURL = appStoreURL
        self.commission = commission
        self.appName = appName
        self.appIconURL = appIconURL
        self.brandColor = brandColor
        self.ogImageURL = ogImageURL
        self.ogDescription = ogDescription
        self.iosAppIDs = iosAppIDs
        self.androidApps = androidApps
    }
}

/// A partner of a program.
public struct PartnerRecord: Sendable, Equatable {
    public var id: String
    public var programID: String
    public var name: String
    /// `active` or `inactive`.
    public var status: String

    public init(id: String, programID: String, name: String, status: String) {
        self.id = id
        self.programID = programID
        self.name = name
        self.status = status
    }

    public var isActive: Bool { status == "active" }
}

/// A code a partner shares. `reference` is the store's stable row number, carried inside click ids.
public struct CodeRecord: Sendable, Equatable {
    public var reference: UInt32
    public var partnerID: String
    public var code: String
    public var active: Bool

    public init(reference: UInt32, partnerID: String, code: String, active: Bool) {
        self.reference = reference
        self.partnerID = partnerID
        self.code = code
        self.active = active
    }
}

/// Everything the link table is built from, read in one transaction.
public struct ConfigRecords: Sendable, Equatable {
    public var organizations: [OrganizationRecord] = []
    public var programs: [ProgramRecord] = []
    public var partners: [PartnerRecord] = []
    public var codes: [CodeRecord] = []
    /// Bumped by every change to the configuration, so readers know when to rebuild.
    public var revision: Int64 = 0

    public init(
        organizations: [OrganizationRecord] = [], programs: [ProgramRecord] = [], partners: [PartnerRecord] = [],
        codes: [CodeRecord] = [], revision: Int64 = 0
    ) {
        self.organizations = organizations
        self.programs = programs
        self.partners = partners
        self.codes = codes
        self.revision = revision
    }

    /// Whether the partner with this id (active or not) is one of the organization's, by its program: one scan, for
    /// a single question (``LinkTable/isPartner(_:of:)`` answers from a map it builds once).
    public func isPartner(_ partnerID: String, of organizationID: String) -> Bool {
        guard let program = partners.first(where: { $0.id == partnerID })?.programID else { return false }
        return programs.contains { $0.id == program && $0.organizationID == organizationID }
    }
}
