import LinkCore

/// Merges an import document into the stored configuration, validating every field first.
///
/// Objects in the document are matched by id, or, without one, by their natural key (an organization by
/// public key, a program by name within its organization, a partner by name within its program, a code by
/// its text without case), so importing the same file twice changes nothing. Objects not in the document
/// are left as they are.
struct ConfigMerge {
    private(set) var changes = ConfigChanges()
    private(set) var report = ImportReport()
    /// The organizations and programs as stored, with this import's changes so far; its partners and codes are in
    /// ``partners`` and ``codes`` until the end.
    private var existing: ConfigRecords
    /// The partners as stored, with this import's changes so far, by id and by program and name.
    private var partners: MergeRecords<PartnerRecord, String, PartnerName>
    /// The codes as stored, with this import's changes so far, by partner and text (``CodeKey``) and by partner.
    private var codes: MergeRecords<CodeRecord, CodeKey, String>
    /// The partners this import changes, by id.
    private var changedPartners: MergeRecords<PartnerRecord, String, String>
    /// The codes stored before this import began, by partner: a lookalike of one is refused, while two spellings
    /// that both arrive in the document (the export of a store that held both) are only warned about.
    private let storedCodes: [String: [CodeRecord]]
    /// The path of the last program whose iOS app ids (`ios`) or Android apps (`android`) this import changed, for an
    /// error about that file's size (``checkAssociationSize(stored:)``).
    private var lastAppLinksPath: (ios: String?, android: String?) = (nil, nil)

    /// A partner's program and name, by which a partner without an id is found (Swift's `==` and hashing of the
    /// name: canonical equivalence, as the merge always compared names).
    struct PartnerName: Hashable {
        let programID: String
        let name: String
    }

    /// A code's partner and text as links, claims and the store's unique index tell codes apart (``ASCII/sameCode``):
    /// its bytes with ASCII letters folded.
    struct CodeKey: Hashable {
        let partnerID: String
        let folded: [UInt8]

        init(partnerID: String, code: String) {
            self.partnerID = partnerID
            folded = code.utf8.map(ASCII.lowercased)
        }
    }

    /// Plans the merge of `document` into `existing`. Throws the first invalid field, by path.
    init(document: ConfigDocument, existing: ConfigRecords) throws {
        self.existing = existing
        partners = MergeRecords(
            existing.partners, identity: \.id, group: { PartnerName(programID: $0.programID, name: $0.name) })
        codes = MergeRecords(
            existing.codes, identity: { CodeKey(partnerID: $0.partnerID, code: $0.code) }, group: \.partnerID)
        changedPartners = MergeRecords([], identity: \.id, group: \.id)
        storedCodes = Dictionary(grouping: existing.codes, by: \.partnerID)
        let storedAssociation = AppAssociation(existing)
        for (index, organization) in document.organizations.enumerated() {
            try merge(organization, path: "organizations[\(index)]")
        }
        self.existing.partners = partners.records
        self.existing.codes = codes.records
        changes.partners = changedPartners.records
        try checkAssociationSize(stored: storedAssociation)
        report.warnings += sharedCodeWarnings() + lookalikeCodeWarnings()
    }

    private mutating func merge(_ document: ConfigDocument.Organization, path: String) throws {
        let stored =
            existing.organizations.first { $0.id == document.id }
            ?? (document.id == nil ? existing.organizations.first { $0.publicKey == document.publicKey } : nil)
        let id =
            try document.id.map { try Self.validID($0, prefix: "org_", path: "\(path).id") } ?? stored?.id
            ?? EntityID.make(prefix: "org_")
        let name = try validName(document.name, stored: stored?.name, path: "\(path).name")
        guard let publicKey = document.publicKey ?? stored?.publicKey else {
            throw StoreError.invalidConfig("\(path).public_key: is required")
        }
        try Self.validKey(publicKey, path: "\(path).public_key")
        if let owner = existing.organizations.first(where: { $0.publicKey == publicKey && $0.id != id }) {
            throw StoreError.invalidConfig("\(path).public_key: is already used by \(owner.id)")
        }
        // Secrets are kept as digests: a given or generated key is hashed here, and a stored one stays as it is.
        var secretKeyDigest = stored?.secretKeyDigest ?? ""
        if let given = document.secretKey {
            try Self.validKey(given, path: "\(path).secret_key", minimumLength: 6)
            secretKeyDigest = SecretDigest.of(given)
        } else if stored == nil {
            let generated = EntityID.make(prefix: "sk_")
            report.generatedSecrets.append((id, generated))
            secretKeyDigest = SecretDigest.of(generated)
        }
        if existing.organizations.contains(where: { $0.secretKeyDigest == secretKeyDigest && $0.id != id }) {
            throw StoreError.invalidConfig("\(path).secret_key: is already used by another organization")
        }
        try checkKeysApart(
            id: id, publicKey: publicKey, publicKeyIsNew: publicKey != stored?.publicKey,
            secretKey: document.secretKey, secretKeyDigest: secretKeyDigest, path: path)
        var authorizationDigest = stored?.revenueCatAuthorizationDigest
        switch document.revenueCatAuthorization {
        case .absent: break
        case .null: authorizationDigest = nil
        case .value(let given):
            try Self.validRevenueCatAuthorization(given, path: "\(path).revenuecat.authorization")
            authorizationDigest = SecretDigest.of(given)
        }
        let timezone = document.timezone ?? stored?.timezone ?? "UTC"
        // Checked only when it changes: a zone an earlier build stored (any file of the zone directory, `localtime`,
        // `posix/Europe/Paris`) is carried over, so an import that leaves it out or lists it again (an export, every
        // dashboard form) still goes through; it is warned about.
        if timezone != stored?.timezone {
            guard timezone == "UTC" || Self.isKnownTimeZone(timezone) else {
                throw StoreError.invalidConfig(
                    "\(path).timezone: must be an IANA time zone name such as UTC or America/Los_Angeles")
            }
        } else if !TimeZoneName.isValid(timezone) {
            report.warnings.append(
                "\(path).timezone: the stored time zone \(QuotedText.shown(timezone)) is no tz database name, and the dashboard counts"
                    + " its days in UTC; set \(TimeZoneName.replacement(for: timezone)) or another zone")
        }
        let record = OrganizationRecord(
            id: id, name: name, publicKey: publicKey, secretKeyDigest: secretKeyDigest,
            revenueCatAuthorizationDigest: authorizationDigest, timezone: timezone)
        remember(record, stored: stored, kind: "organization", into: \.organizations, in: \ConfigChanges.organizations)
        for (index, program) in document.programs.enumerated() {
            try merge(program, organizationID: id, path: "\(path).programs[\(index)]")
        }
    }

    /// Refuses a secret key that is a public key, its organization's or another's, and a public key that is
    /// another organization's secret key: a public key is printed in every link an organization shares, so a secret
    /// equal to one is no secret (`Authorization: Bearer pk_…` would read the organization's customers), and a
    /// public key equal to another's secret publishes that secret. Secrets are kept as digests, so a public key is
    /// compared with them by its digest. Only a key this import sets is refused, naming its field (the secret key
    /// when both are set); keys stored alike before this rule are warned about, so an import that leaves them as
    /// they are (an export, a dashboard form) still goes through. A generated secret key (120 random bits) is not
    /// looked for among the other organizations' public keys: it cannot be one.
    private mutating func checkKeysApart(
        id: String, publicKey: String, publicKeyIsNew: Bool, secretKey: String?, secretKeyDigest: String, path: String
    ) throws {
        let publicDigest = SecretDigest.of(publicKey)
        if publicDigest == secretKeyDigest {
            if secretKey != nil {
                throw StoreError.invalidConfig(
                    "\(path).secret_key: must differ from the public key, which every link shows")
            }
            if publicKeyIsNew {
                throw StoreError.invalidConfig(
                    "\(path).public_key: must differ from the secret key, since every link shows the public key")
            }
            report.warnings.append(
                "\(path).secret_key: the stored secret key is the organization's public key, which every link shows;"
                    + " import a new secret_key")
        }
        let others = existing.organizations.filter { $0.id != id }
        if let secretKey, others.contains(where: { $0.publicKey == secretKey }) {
            throw StoreError.invalidConfig(
                "\(path).secret_key: is another organization's public key, which its links show")
        }
        if let owner = others.first(where: { $0.secretKeyDigest == publicDigest }) {
            guard publicKeyIsNew else {
                report.warnings.append(
                    "\(path).public_key: is the stored secret key of \(owner.id), which this organization's links"
                        + " show; import a new secret_key for \(owner.id)")
                return
            }
            throw StoreError.invalidConfig(
                "\(path).public_key: is another organization's secret key, which links would show; choose another")
        }
    }

    private mutating func merge(_ document: ConfigDocument.Program, organizationID: String, path: String) throws {
        let stored = try storedProgram(document, organizationID: organizationID, path: path)
        let id =
            try document.id.map { try Self.validID($0, prefix: "prg_", path: "\(path).id") } ?? stored?.id
            ?? EntityID.make(prefix: "prg_")
        var record = stored ?? ProgramRecord(id: id, organizationID: organizationID, name: "")
        record.name = try validName(document.name, stored: stored?.name, path: "\(path).name")
        switch document.claimWindowDays {
        case .absent: break
        case .null: record.claimWindowDays = nil
        case .value(let days):
            guard (1...3650).contains(days) else {
                throw StoreError.invalidConfig("\(path).claim_window_days: must be 1–3650 days, or null")
            }
            record.claimWindowDays = days
        }
        let storedTemplate = record.deepLinkTemplate
        record.deepLinkTemplate = try Self.apply(document.deepLinkTemplate, to: storedTemplate) {
            do {
                let template = try DeepLinkTemplate($0)
                // Only on a new template: one stored before the rule is served as it was, so the same document
                // imported again (an export, the dashboard's form with every field) still goes through; it is
                // warned about below.
                if $0 != storedTemplate { try template.validateLiteralText() }
            } catch let error as ConfigValidationError {
                throw StoreError.invalidConfig("\(path).app_links.deep_link_template: \(error.reason)")
            }
        }
        // A URL the document gives as it is stored is held to the rules it was stored under (see `asStored`), so the
        // same document imported again (an export, the dashboard's form) still goes through; it is warned about below.
        let storedPlayURL = record.googlePlayURL
        record.googlePlayURL = try Self.apply(document.googlePlayURL, to: storedPlayURL) {
            try Self.validURL($0, path: "\(path).app_links.google_play_url", asStored: $0 == storedPlayURL)
        }
        let storedAppStoreURL = record.appStoreURL
        record.appStoreURL = try Self.apply(document.appStoreURL, to: storedAppStoreURL) {
            try Self.validURL($0, path: "\(path).app_links.app_store_url", asStored: $0 == storedAppStoreURL)
        }
        let storedApps = (record.iosAppIDs, record.androidApps)
        try applyAppIDs(document, to: &record, path: "\(path).app_links")
        if storedApps.0 != record.iosAppIDs { lastAppLinksPath.ios = "\(path).app_links.ios_app_ids" }
        if storedApps.1 != record.androidApps { lastAppLinksPath.android = "\(path).app_links.android_apps" }
        // A new template that phones without the app, or the SDK, cannot use is accepted (an app may not use the SDK,
        // or only reach people who have it), with a warning; once stored it is not repeated at every import.
        if let text = record.deepLinkTemplate, text != storedTemplate, let template = try? DeepLinkTemplate(text) {
            for advice in template.advice {
                report.warnings.append("\(path).app_links.deep_link_template: the template \(advice)")
            }
        }
        warnAboutStoredLinks(record, path: "\(path).app_links")
        switch document.commission {
        case .absent: break
        case .null: record.commission = nil
        case .value(let commission):
            record.commission = try Self.validCommission(commission, path: "\(path).commission")
        }
        try applyBranding(document, to: &record, path: path)
        remember(record, stored: stored, kind: "program", into: \.programs, in: \ConfigChanges.programs)
        for (index, partner) in document.partners.enumerated() {
            try merge(partner, programID: id, path: "\(path).partners[\(index)]")
        }
    }

    /// Refuses an import after which either association file would be over ``AppLinkRules/maximumDocumentSize`` and
    /// larger than `stored`'s: not only one that lists apps, since a longer public key lengthens every path its apps
    /// name. One that leaves a file over the limit but smaller (removing some apps from a store an earlier build let
    /// grow) goes through, so such a store can be mended a step at a time. Measured with links at the host's root: a
    /// `--public-url` path adds its length to each path of both files, which `serve` warns about when it passes the
    /// limit.
    private func checkAssociationSize(stored: AppAssociation) throws {
        let association = AppAssociation(existing)
        for (name, document, before, path) in [
            (
                "apple-app-site-association", association.appleAppSiteAssociation, stored.appleAppSiteAssociation,
                lastAppLinksPath.ios
            ),
            ("assetlinks.json", association.assetLinks, stored.assetLinks, lastAppLinksPath.android),
        ] {
            guard let document, document.count > AppLinkRules.maximumDocumentSize,
                document.count > before?.count ?? 0
            else { continue }
            throw StoreError.invalidConfig(
                "\(path ?? "organizations"): the host's \(name) would be \(document.count) bytes with every"
                    + " program's apps and every organization's public key, over the"
                    + " \(AppLinkRules.maximumDocumentSize) bytes a phone reads; list fewer apps")
        }
    }

    /// `ios_app_ids` and `android_apps` (``AppLinkRules``): absent keeps, `null` or `[]` clears, a list replaces the
    /// stored one whole. The first bad value is named by its index; fingerprints are stored in uppercase.
    private func applyAppIDs(_ document: ConfigDocument.Program, to record: inout ProgramRecord, path: String) throws {
        func invalid(_ field: String, _ reason: String) -> StoreError {
            StoreError.invalidConfig("\(path).\(field): \(reason)")
        }
        switch document.iosAppIDs {
        case .absent: break
        case .null: record.iosAppIDs = []
        case .value(let ids):
            guard ids.count <= AppLinkRules.maximumIOSAppIDs else {
                throw invalid("ios_app_ids", "lists \(ids.count) apps; at most \(AppLinkRules.maximumIOSAppIDs)")
            }
            var seen: Set<String> = []
            for (index, id) in ids.enumerated() {
                do throws(ConfigValidationError) { try AppLinkRules.validateIOSAppID(id) } catch {
                    throw invalid("ios_app_ids[\(index)]", "\(QuotedText.shown(id)) \(error.reason)")
                }
                // Bundle ids are case-insensitive (Apple): two spellings are one app.
                guard seen.insert(ASCII.lowercased(id)).inserted else {
                    throw invalid("ios_app_ids[\(index)]", "\(QuotedText.shown(id)) is listed twice")
                }
            }
            record.iosAppIDs = ids
        }
        switch document.androidApps {
        case .absent: break
        case .null: record.androidApps = []
        case .value(let apps):
            guard apps.count <= AppLinkRules.maximumAndroidApps else {
                throw invalid("android_apps", "lists \(apps.count) apps; at most \(AppLinkRules.maximumAndroidApps)")
            }
            var packages: Set<String> = []
            var normalized: [AndroidApp] = []
            for (index, app) in apps.enumerated() {
                let appPath = "android_apps[\(index)]"
                do throws(ConfigValidationError) { try AppLinkRules.validatePackageName(app.packageName) } catch {
                    throw invalid("\(appPath).package_name", "\(QuotedText.shown(app.packageName)) \(error.reason)")
                }
                guard packages.insert(app.packageName).inserted else {
                    throw invalid("\(appPath).package_name", "\(QuotedText.shown(app.packageName)) is listed twice")
                }
                guard (1...AppLinkRules.maximumFingerprints).contains(app.fingerprints.count) else {
                    throw invalid(
                        "\(appPath).sha256_cert_fingerprints",
                        "must list 1–\(AppLinkRules.maximumFingerprints) fingerprints, not \(app.fingerprints.count)")
                }
                var fingerprints: [String] = []
                for (position, text) in app.fingerprints.enumerated() {
                    let fingerprintPath = "\(appPath).sha256_cert_fingerprints[\(position)]"
                    let fingerprint: String
                    do throws(ConfigValidationError) {
                        fingerprint = try AppLinkRules.normalizedFingerprint(text)
                    } catch {
                        throw invalid(fingerprintPath, error.reason)
                    }
                    guard !fingerprints.contains(fingerprint) else {
                        throw invalid(fingerprintPath, "\(fingerprint) is listed twice")
                    }
                    fingerprints.append(fingerprint)
                }
                normalized.append(AndroidApp(packageName: app.packageName, fingerprints: fingerprints))
            }
            record.androidApps = normalized
        }
    }

    /// The page branding fields: each checked by ``BrandingRules``; absent keeps, `null` (or `""`) clears.
    private func applyBranding(_ document: ConfigDocument.Program, to record: inout ProgramRecord, path: String) throws
    {
        func check(_ field: String, _ validate: @escaping (String) throws(ConfigValidationError) -> Void)
            -> (String) throws -> Void
        {
            { (value: String) throws in
                do throws(ConfigValidationError) { try validate(value) } catch {
                    throw StoreError.invalidConfig("\(path).\(field): \(error.reason)")
                }
            }
        }
        record.appName = try Self.apply(
            document.appName, to: record.appName, validate: check("app_name", BrandingRules.validateAppName))
        /// An image URL, held to the rules it was stored under when the document gives it as stored (as a store URL).
        func checkImageURL(_ field: String, stored: String?) -> (String) throws -> Void {
            check(field) { (url) throws(ConfigValidationError) in
                try BrandingRules.validateImageURL(url, asStored: url == stored)
            }
        }
        record.appIconURL = try Self.apply(
            document.appIconURL, to: record.appIconURL,
            validate: checkImageURL("app_icon_url", stored: record.appIconURL))
        record.brandColor = try Self.apply(
            document.brandColor, to: record.brandColor, validate: check("brand_color", BrandingRules.validateColor))
        record.ogImageURL = try Self.apply(
            document.ogImageURL, to: record.ogImageURL,
            validate: checkImageURL("og_image_url", stored: record.ogImageURL))
        record.ogDescription = try Self.apply(
            document.ogDescription, to: record.ogDescription,
            validate: check("og_description", BrandingRules.validateDescription))
    }

    /// A link the document left as it was stored may break rules added since it was: the server ignores it (no
    /// redirect, no badge), and the import says so.
    private mutating func warnAboutStoredLinks(_ record: ProgramRecord, path: String) {
        func warn(_ field: String, _ value: String?, _ validate: (String) throws(ConfigValidationError) -> Void) {
            guard let value else { return }
            do { try validate(value) } catch {
                report.warnings.append(
                    "\(path).\(field): the stored value is ignored by the server (it \(error.reason));"
                        + " set a new one or null")
            }
        }
        warn("deep_link_template", record.deepLinkTemplate) { (text) throws(ConfigValidationError) in
            _ = try DeepLinkTemplate(text)
        }
        if let template = record.deepLinkTemplate.flatMap({ try? DeepLinkTemplate($0) }) {
            do { try template.validateLiteralText() } catch {
                report.warnings.append(
                    "\(path).deep_link_template: the stored template \(error.reason), and is sent with it as it is;"
                        + " set a new one")
            }
        }
        for (field, url) in [("google_play_url", record.googlePlayURL), ("app_store_url", record.appStoreURL)] {
            warn(field, url) { (value) throws(ConfigValidationError) in
                try URLRules.validatePageURL(value, asStored: true)
            }
            // Kept by the server, but no longer written so.
            guard let url, (try? URLRules.validatePageURL(url, asStored: true)) != nil else { continue }
            do { try URLRules.validatePageURL(url) } catch {
                report.warnings.append(
                    "\(path).\(field): the stored value \(error.reason); the server still sends it (what it holds above"
                        + " ASCII percent-encoded in a redirect); set a new one")
            }
        }
    }

    private func storedProgram(_ document: ConfigDocument.Program, organizationID: String, path: String) throws
        -> ProgramRecord?
    {
        if let id = document.id {
            guard let stored = existing.programs.first(where: { $0.id == id }) else { return nil }
            guard stored.organizationID == organizationID else {
                throw StoreError.invalidConfig(
                    "\(path).id: \(QuotedText.shown(id)) belongs to \(stored.organizationID)")
            }
            return stored
        }
        return existing.programs.first { $0.organizationID == organizationID && $0.name == document.name }
    }

    private mutating func merge(_ document: ConfigDocument.Partner, programID: String, path: String) throws {
        var stored: PartnerRecord?
        if let id = document.id {
            stored = partners.first(id)
            if let stored, stored.programID != programID {
                throw StoreError.invalidConfig("\(path).id: \(QuotedText.shown(id)) belongs to \(stored.programID)")
            }
        } else if let name = document.name {
            stored = partners.first(in: PartnerName(programID: programID, name: name))
        }
        let id =
            try document.id.map { try Self.validID($0, prefix: "part_", path: "\(path).id") } ?? stored?.id
            ?? EntityID.make(prefix: "part_")
        let name = try validName(document.name, stored: stored?.name, path: "\(path).name")
        let status = document.status ?? stored?.status ?? "active"
        guard status == "active" || status == "inactive" else {
            throw StoreError.invalidConfig("\(path).status: must be \"active\" or \"inactive\"")
        }
        let record = PartnerRecord(id: id, programID: programID, name: name, status: status)
        if stored != record {
            changedPartners.replace(with: record)
            partners.replace(with: record)
            report.changes.append("\(stored == nil ? "created" : "updated") partner \(id)")
        }
        var seen: Set<[UInt8]> = []
        for (index, code) in document.codes.enumerated() {
            let codePath = "\(path).codes[\(index)].code"
            do { try CodeRules.validate(code.code) } catch { throw StoreError.invalidConfig("\(codePath): \(error)") }
            let folded = ASCII.lowercased(code.code)
            guard seen.insert(Array(folded.utf8)).inserted else {
                throw StoreError.invalidConfig("\(codePath): \(code.code) appears twice for this partner")
            }
            // The stored code this one is, as the store's unique index and the links tell codes apart: by bytes,
            // ASCII letters folded (Swift's `==` is canonical equivalence, and would update a code the upsert then
            // does not touch).
            let stored = codes.first(CodeKey(partnerID: id, code: code.code))
            if stored == nil {
                do {
                    try CodeRules.refuseDotSegment(code.code)
                    try CodeRules.refuseWhitespace(code.code)
                    // Only U+2800 or Hangul fillers: a code nobody can read off a page or type.
                    try DisplayTextRules.refuseBlank(code.code)
                    // A variation selector, a grapheme joiner, a filler among visible characters: `SAM20` and U+FE0F
                    // looks like `SAM20` and is another code.
                    try CodeRules.refuseInvisible(code.code)
                } catch { throw StoreError.invalidConfig("\(codePath): \(error)") }
            } else if CodeRules.isDotSegment(code.code) {
                report.warnings.append(
                    "\(codePath): the stored code \(code.code) is a dot segment, which browsers remove from a link's"
                        + " path: its link cannot be opened (claims still take the code); add another code")
            } else if CodeRules.containsWhitespace(code.code) {
                report.warnings.append(
                    "\(codePath): the stored code \(code.code) holds a space (\(Self.codePoints(code.code))), which"
                        + " claims and links drop around a code: its link works as written, but a claim may miss it;"
                        + " add another code")
            } else if CodeRules.containsInvisible(code.code) {
                report.warnings.append(
                    "\(codePath): the stored code \(code.code) holds a character drawn as nothing"
                        + " (\(Self.codePoints(code.code))), so it looks like a code without it: its link and claims work"
                        + " as written, but a person who types what they see reaches another code or none; add another"
                        + " code")
            }
            // Reads as a code the partner held before this import (CodeLookalikes): canonically equal, it would be
            // another code (`CAFE` and U+0301 for `CAFÉ`); equal once folded (`ＳＡＭ２０` for `SAM20`), its other
            // spellings would match both codes of the one partner. A pair that both arrive in this import is a copy of
            // a store that held both (possible before the rule): accepted with a warning, as the link table serves it.
            if stored == nil, let (lookalike, kind) = Self.lookalike(of: code.code, in: storedCodes[id] ?? []) {
                // A canonical pair whose folds are the same bytes (the Kelvin sign's `K`) is the stored code to a link
                // or claim typed with it, as a compatibility one is.
                let consequence =
                    kind == .canonical
                        && CompatibilityCharacters.folded(code.code) != CompatibilityCharacters.folded(lookalike.code)
                    ? "links and claims would take it for another code"
                    : "links and claims take it for the stored code already"
                throw StoreError.invalidConfig(
                    "\(codePath): \(Self.looksLike(code.code, lookalike.code)); \(consequence): use the stored spelling"
                )
            } else if stored == nil, let (lookalike, _) = Self.lookalike(of: code.code, in: codes.all(in: id)) {
                report.warnings.append(
                    "\(codePath): \(Self.looksLike(code.code, lookalike.code)); both are new in this import and both"
                        + " are kept (a copy of a store that held both): either reaches this partner")
            }
            let record = CodeRecord(
                reference: stored?.reference ?? 0, partnerID: id, code: code.code, active: code.active)
            if stored?.code.utf8.elementsEqual(code.code.utf8) != true || stored?.active != code.active {
                changes.codes.append(record)
                report.changes.append("\(stored == nil ? "created" : "updated") code \(code.code) of \(id)")
                codes.replace(with: record)
            }
        }
    }

    /// The first of a partner's `codes` that `code` is a lookalike of (``CodeLookalikes``), and how.
    private static func lookalike(of code: String, in codes: [CodeRecord]) -> (CodeRecord, CodeLookalikes.Kind)? {
        codes.lazy.compactMap { stored in CodeLookalikes.kind(stored.code, code).map { (stored, $0) } }.first
    }

    /// That `code` looks the same as the partner's `other`, with the code points of both (`other` is stored, perhaps
    /// by another tool: quoted as errors quote input).
    private static func looksLike(_ code: String, _ other: String) -> String {
        "\(code) looks the same as the partner's code \(QuotedText.shown(other)) but is written with other Unicode characters"
            + " (\(codePoints(code)) against \(codePoints(other)))"
    }

    /// `U+0043 U+0041 U+0046 U+00C9`: the code points of a code, for an error that two codes look alike in.
    private static func codePoints(_ text: String) -> String {
        text.unicodeScalars.prefix(64).map {
            let hex = String($0.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }

    /// Adds `record` to the changes when it is new or differs from what is stored, and to `existing`, so
    /// that later objects of the same document see it.
    private mutating func remember<Record: Equatable & Identified>(
        _ record: Record, stored: Record?, kind: String, into existingPath: WritableKeyPath<ConfigRecords, [Record]>,
        in changesPath: WritableKeyPath<ConfigChanges, [Record]>
    ) {
        guard stored != record else { return }
        changes[keyPath: changesPath].removeAll { $0.id == record.id }
        changes[keyPath: changesPath].append(record)
        existing[keyPath: existingPath].removeAll { $0.id == record.id }
        existing[keyPath: existingPath].append(record)
        report.changes.append("\(stored == nil ? "created" : "updated") \(kind) \(record.id)")
    }

    /// Codes that two active partners of one organization hold: accepted, since data can come from
    /// elsewhere, but links answer 404 and claims 409 for them until one is deactivated. The warning names the
    /// partners that make the conflict, as the link table counts them: active partners of that organization
    /// holding the code active, in any case (a code is per organization: `/a/<public_key>/<code>`).
    private func sharedCodeWarnings() -> [String] {
        LinkTable(existing).conflicts.map {
            "code \(QuotedText.shown($0.code)) is held by more than one partner of \($0.organizationID) "
                + "(\($0.partnerIDs.joined(separator: ", "))): "
                + "its link answers 404 and claims answer 409 until only one holds it"
        }
    }

    /// Active codes of two active partners of one organization that read the same but are written with other code
    /// points (``CodeLookalikes``): `CAFÉ` as U+00C9, and as `E` with U+0301, or `KING` with the Kelvin sign, which
    /// links and claims tell apart, so a person who types the code reaches the partner whose spelling the keyboard
    /// makes; `SAM20` and the full-width `ＳＡＭ２０`, each of which matches as written, while any other spelling
    /// (`ｓａｍ２０`) matches both and is refused as a shared code. Accepted, as a shared code is (data can come from
    /// elsewhere), with a warning naming both.
    private func lookalikeCodeWarnings() -> [String] {
        let organizationOfProgram = Dictionary(
            existing.programs.map { ($0.id, $0.organizationID) }, uniquingKeysWith: { first, _ in first })
        var organizationOfPartner: [String: String] = [:]
        for partner in existing.partners where partner.status == "active" {
            organizationOfPartner[partner.id] = organizationOfProgram[partner.programID]
        }
        // Swift's String hashing and `==` are canonical equivalence: a key gathers every spelling that reads the same.
        // One table per key of CodeLookalikes, canonical ones first, so a pair of both kinds is told as canonical.
        var groups = [[String: [CodeRecord]]](repeating: [:], count: CodeLookalikes.keyCount)
        for code in existing.codes where code.active {
            guard let organization = organizationOfPartner[code.partnerID] else { continue }
            for (position, key) in CodeLookalikes.keys(code.code).enumerated() {
                groups[position][organization + "\u{0}" + key.key, default: []].append(code)
            }
        }
        var warnings: [String] = []
        var seen: Set<[[UInt8]]> = []
        for (key, codes) in groups.flatMap({ $0.sorted(by: { $0.key < $1.key }) }) {
            let first = codes[0]
            for other in codes.dropFirst() where other.partnerID != first.partnerID {
                guard let kind = CodeLookalikes.kind(first.code, other.code) else { continue }
                let pair = [Array(first.code.utf8), Array(other.code.utf8)].sorted { $0.lexicographicallyPrecedes($1) }
                guard seen.insert(pair).inserted else { continue }
                let organization = String(key.prefix { $0 != "\u{0}" })
                let consequence =
                    kind == .canonical
                    ? "links and claims tell them apart, so a person who types the code reaches whichever spelling "
                        + "the keyboard makes"
                    : "each matches as written (in any ASCII case), and a spelling between the two (part "
                        + "full-width, say) matches both and is refused as a shared code is (links 404, claims 409)"
                warnings.append(
                    "code \(QuotedText.shown(first.code)) of \(first.partnerID) and code \(QuotedText.shown(other.code)) of "
                        + "\(other.partnerID) (\(organization)) "
                        + "read the same but are written with other Unicode characters (\(Self.codePoints(first.code)) "
                        + "and \(Self.codePoints(other.code))): \(consequence)")
            }
        }
        return warnings
    }

    private static func apply(
        _ field: ConfigDocument.Field<String>, to current: String?, validate: (String) throws -> Void
    )
        throws -> String?
    {
        switch field {
        case .absent: return current
        case .null: return nil
        case .value(let text) where text.isEmpty: return nil
        case .value(let text):
            try validate(text)
            return text
        }
    }

    static func validID(_ id: String, prefix: String, path: String) throws -> String {
        let rest = id.utf8.dropFirst(prefix.utf8.count)
        guard id.hasPrefix(prefix), !rest.isEmpty, id.utf8.count <= 64,
            rest.allSatisfy({ ASCII.isUnreserved($0) && $0 != 0x2E && $0 != 0x7E })
        else {
            throw StoreError.invalidConfig(
                "\(path): must be \(prefix) followed by 1–\(64 - prefix.count) of A–Z a–z 0–9 _ -")
        }
        return id
    }

    static func validKey(_ key: String, path: String, minimumLength: Int = 1) throws {
        guard (minimumLength...KeyRules.maximumLength).contains(key.utf8.count),
            key.utf8.allSatisfy({ ASCII.isUnreserved($0) && $0 != 0x2E && $0 != 0x7E })
        else {
            throw StoreError.invalidConfig(
                "\(path): must be \(minimumLength)–\(KeyRules.maximumLength) of A–Z a–z 0–9 _ -")
        }
    }

    /// A name shown on pages: `given`, else the `stored` one; 1–200 characters of display text
    /// (``DisplayTextRules``). A blank name is refused when it is set, and only warned about when it is the stored one
    /// carried over (stored before the rule), so an import that leaves it out or lists it again still goes through.
    mutating func validName(_ given: String?, stored: String?, path: String) throws -> String {
        guard let name = given ?? stored else { throw StoreError.invalidConfig("\(path): is required") }
        let carriedOver = name == stored
        do throws(ConfigValidationError) {
            try DisplayTextRules.validate(name, maximumCharacters: 200, allowingBlank: carriedOver)
        } catch {
            throw StoreError.invalidConfig("\(path): \(error.reason)")
        }
        if carriedOver, DisplayTextRules.isBlank(name) {
            report.warnings.append(
                "\(path): the stored name shows no visible character (only \(Self.codePoints(name))), so pages show"
                    + " it blank; set a name")
        }
        return name
    }

    /// Whether `name` is a valid zone name (``TimeZoneName``) with a zone file in the system's tzdata, where the
    /// server reads it.
    static func isKnownTimeZone(_ name: String) -> Bool {
        TimeZoneName.isValid(name) && FileSystem.isRegularFile("/usr/share/zoneinfo/" + name)
    }

    static func validURL(_ url: String, path: String, asStored: Bool) throws {
        do { try URLRules.validatePageURL(url, asStored: asStored) } catch {
            throw StoreError.invalidConfig("\(path): \(error.reason)")
        }
    }
}

/// Records with a string id, so the merge can replace them by id.
protocol Identified { var id: String { get } }
extension OrganizationRecord: Identified {}
extension ProgramRecord: Identified {}
