import LinkCore

#if canImport(Glibc)
    import Glibc
#endif

/// `tolt-edge import` and `export`: the configuration as a file.
public enum ConfigImporter {
    /// The times an import is planned again after another writer got in between, before it gives up with
    /// ``StoreError/conflict(_:)``.
    public static let maximumRetries = 8

    /// Merges `document` into the store in one transaction, retrying when another writer got in between.
    /// Nothing is written when any field is invalid.
    ///
    /// `check` is run on the stored configuration each time the import is planned against it, and may refuse it by
    /// throwing (``StoreError/invalidConfig(_:)``). The import is written only if the configuration has not moved
    /// since (else it is planned and checked again), so a rule `check` holds cannot be broken by another import
    /// racing this one. Each retry waits first (``backOff(before:)``), so that writers that collided (forty dashboard
    /// saves at once on two nodes) spread out instead of colliding again in step; after ``maximumRetries`` the
    /// conflict is thrown.
    @discardableResult
    public static func importDocument(
        _ document: ConfigDocument, into store: any Store, check: (ConfigRecords) throws -> Void = { _ in }
    ) throws -> ImportReport {
        var attempt = 0
        while true {
            let existing = try store.configRecords()
            try check(existing)
            let merge = try ConfigMerge(document: document, existing: existing)
            if merge.changes == ConfigChanges() { return merge.report }
            do {
                try store.applyConfig(merge.changes, expectedRevision: existing.revision)
                return merge.report
            } catch let error as StoreError where error.isConflict && attempt < maximumRetries {
                attempt += 1
                backOff(before: attempt)
            }
        }
    }

    /// Sleeps a random time below 2^`retry` milliseconds, at most 128 (full jitter): at most 0.38 s over all eight
    /// retries (half that on average), short enough for a form's answer, long enough for the writers it collided
    /// with to commit.
    private static func backOff(before retry: Int) {
        var generator = SystemRandomNumberGenerator()
        let ceiling = UInt32(1) << UInt32(min(retry, 7))
        usleep(UInt32.random(in: 0..<ceiling * 1000, using: &generator))
    }

    /// Plans `document` against `existing` as ``importDocument(_:into:check:)`` does, and writes nothing: throws
    /// the first invalid field (``StoreError/invalidConfig(_:)``). The dashboard checks a form's parts with it, one
    /// at a time, to show every invalid field at once.
    public static func validate(_ document: ConfigDocument, against existing: ConfigRecords) throws {
        _ = try ConfigMerge(document: document, existing: existing)
    }

    /// The stored configuration in the import form, ids included, without secrets: no secret key and no
    /// RevenueCat authorization.
    public static func exportDocument(from store: any Store) throws -> [UInt8] {
        let records = try store.configRecords()
        // Each parent's children gathered once, in their order: filtering every list for each parent took 11.5 s
        // for 50,000 partners.
        let programsByOrganization = Dictionary(grouping: records.programs, by: \.organizationID)
        let partnersByProgram = Dictionary(grouping: records.partners, by: \.programID)
        let codesByPartner = Dictionary(grouping: records.codes, by: \.partnerID)
        var json = JSONWriter()
        json.raw("{\"organizations\":[")
        for (organizationIndex, organization) in records.organizations.enumerated() {
            if organizationIndex > 0 { json.raw(",") }
            json.raw("\n  {")
            json.key("id"); json.string(organization.id); json.raw(",")
            json.key("name"); json.string(organization.name); json.raw(",")
            json.key("public_key"); json.string(organization.publicKey); json.raw(",")
            json.key("timezone"); json.string(organization.timezone); json.raw(",")
            json.key("programs"); json.raw("[")
            let programs = programsByOrganization[organization.id] ?? []
            for (programIndex, program) in programs.enumerated() {
                if programIndex > 0 { json.raw(",") }
                json.raw("\n    {")
                json.key("id"); json.string(program.id); json.raw(",")
                json.key("name"); json.string(program.name); json.raw(",")
                json.key("claim_window_days"); json.raw(program.claimWindowDays.map(String.init) ?? "null");
                json.raw(",")
                json.key("app_links")
                json.object {
                    $0.string("deep_link_template", program.deepLinkTemplate)
                    $0.string("google_play_url", program.googlePlayURL)
                    $0.string("app_store_url", program.appStoreURL)
                    $0.member("ios_app_ids") { json in
                        if program.iosAppIDs.isEmpty { return json.raw("null") }
                        json.array(program.iosAppIDs) { id, json in json.string(id) }
                    }
                    $0.member("android_apps") { json in
                        if program.androidApps.isEmpty { return json.raw("null") }
                        AndroidApp.write(program.androidApps, into: &json)
                    }
                }
                json.raw(",")
                json.key("commission"); commission(program.commission, into: &json); json.raw(",")
                json.key("app_name"); json.optionalString(program.appName); json.raw(",")
                json.key("app_icon_url"); json.optionalString(program.appIconURL); json.raw(",")
                json.key("brand_color"); json.optionalString(program.brandColor); json.raw(",")
                json.key("og_image_url"); json.optionalString(program.ogImageURL); json.raw(",")
                json.key("og_description"); json.optionalString(program.ogDescription); json.raw(",")
                json.key("partners"); json.raw("[")
                let partners = partnersByProgram[program.id] ?? []
                for (partnerIndex, partner) in partners.enumerated() {
                    if partnerIndex > 0 { json.raw(",") }
                    json.raw("\n      {")
                    json.key("id"); json.string(partner.id); json.raw(",")
                    json.key("name"); json.string(partner.name); json.raw(",")
                    json.key("status"); json.string(partner.status); json.raw(",")
                    json.key("codes"); json.raw("[")
                    for (codeIndex, code) in (codesByPartner[partner.id] ?? []).enumerated() {
                        if codeIndex > 0 { json.raw(",") }
                        json.object {
                            $0.string("code", code.code)
                            $0.raw("active", code.active ? "true" : "false")
                        }
                    }
                    json.raw("]}")
                }
                json.raw("]}")
            }
            json.raw("]}")
        }
        json.raw("\n]}\n")
        return json.bytes
    }

    /// Writes `rule` in the import form (`{"percent":12.5,"recurring":true,"duration_months":12}`), or `null`.
    private static func commission(_ rule: CommissionRule?, into json: inout JSONWriter) {
        guard let rule else { return json.raw("null") }
        json.object {
            switch rule.amount {
            case .percent(let basisPoints): $0.raw("percent", percentText(basisPoints: basisPoints))
            case .fixedCents(let cents): $0.raw("fixed_cents", String(cents))
            }
            $0.raw("recurring", rule.recurring ? "true" : "false")
            if let months = rule.durationMonths { $0.raw("duration_months", String(months)) }
        }
    }

    /// A percentage in basis points as the shortest exact JSON number: 2000 is `20`, 1250 `12.5`, 1 `0.01`.
    private static func percentText(basisPoints: Int) -> String {
        let whole = basisPoints / 100
        let hundredths = basisPoints % 100
        if hundredths == 0 { return String(whole) }
        if hundredths % 10 == 0 { return "\(whole).\(hundredths / 10)" }
        return "\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }

    /// What ``seedDemo(into:)`` did.
    public enum DemoSeed: Sendable, Equatable {
        /// The store had no demo organization: ``demoDocument`` was stored.
        case stored
        /// The demo organization of an older version (no RevenueCat authorization, a program without commission)
        /// was given the parts the whole loop needs (``demoLoopParts``); what of the demo it has now.
        case completed(DemoState)
        /// The demo organization was left as it is: what of the demo it still has.
        case kept(DemoState)

        /// What of the demo the store holds now.
        public var state: DemoState {
            switch self {
            case .stored: DemoState(secretKeyIsDemo: true, codeIsActive: true, webhook: .demo)
            case .completed(let state), .kept(let state): state
            }
        }
    }

    /// What a demo organization has of ``demoDocument``, for `serve --demo` to say only what is true of it.
    public struct DemoState: Sendable, Equatable {
        /// The webhook's authorization.
        public enum Webhook: Sendable, Equatable {
            /// ``demoRevenueCatAuthorization``.
            case demo
            /// Another one, set by the user.
            case other
            /// None: the webhook refuses every event.
            case none
        }

        /// Its secret key is still `sk_demo`.
        public var secretKeyIsDemo: Bool
        /// `pk_demo`'s link for `SAM20` still leads somewhere (the code and its partner active, the code not shared).
        public var codeIsActive: Bool
        public var webhook: Webhook

        public init(secretKeyIsDemo: Bool, codeIsActive: Bool, webhook: Webhook) {
            self.secretKeyIsDemo = secretKeyIsDemo
            self.codeIsActive = codeIsActive
            self.webhook = webhook
        }

        /// The state of `organization` in `records`.
        init(_ organization: OrganizationRecord, in records: ConfigRecords) {
            let demo = ConfigImporter.demoDocument.organizations[0]
            secretKeyIsDemo =
                demo.secretKey.map { SecretDigest.matches($0, digest: organization.secretKeyDigest) } ?? false
            webhook =
                switch organization.revenueCatAuthorizationDigest {
                case nil: .none
                case let digest? where SecretDigest.matches(ConfigImporter.demoRevenueCatAuthorization, digest: digest):
                    .demo
                default: .other
                }
            if case .target? = LinkTable(records).match(publicKey: organization.publicKey, code: "SAM20") {
                codeIsActive = true
            } else {
                codeIsActive = false
            }
        }
    }

    /// Stores ``demoDocument`` when the store has no demo organization (none with its id `org_demo` or its public
    /// key `pk_demo`). `serve --demo` runs at every start (every `make serve`): merging the document each time would
    /// put back `sk_demo` after the user rotated the key (ending their dashboard sessions) and reactivate a `SAM20`
    /// they deactivated, so a stored demo is kept, but for one case: the demo an older version stored, which lacks
    /// both of the loop's parts (a RevenueCat authorization, and a commission on `prg_demo`), gets them, so its data
    /// directory walks the README's loop. A demo that has either was set up by this version or by the user, and is
    /// kept as it is.
    public static func seedDemo(into store: any Store) throws -> DemoSeed {
        let organization = demoDocument.organizations[0]
        let records = try store.configRecords()
        guard
            let stored = records.organizations.first(where: {
                $0.id == organization.id || $0.publicKey == organization.publicKey
            })
        else {
            try importDocument(demoDocument, into: store)
            return .stored
        }
        let program = organization.programs[0]
        guard stored.revenueCatAuthorizationDigest == nil,
            let storedProgram = records.programs.first(where: {
                $0.id == program.id && $0.organizationID == stored.id
            }),
            storedProgram.commission == nil
        else { return .kept(DemoState(stored, in: records)) }
        var parts = demoLoopParts
        parts.organizations[0].id = stored.id
        try importDocument(parts, into: store)
        let now = try store.configRecords()
        return .completed(DemoState(now.organizations.first { $0.id == stored.id } ?? stored, in: now))
    }

    /// The value of the `Authorization` header the demo organization's RevenueCat webhook takes.
    public static let demoRevenueCatAuthorization = "Bearer whsec_demo"

    /// What the demo needs for the whole loop (click, claim, RevenueCat webhook, commission) beyond its link: the
    /// webhook's authorization and the program's commission (20 % of every paid purchase). No deep-link template: no
    /// phone has the demo's app, so a phone that opens the demo link gets what it would without the app (the page
    /// with the code and its copy button on an iPhone, Google Play with the install referrer on Android), not a
    /// scheme it cannot open.
    static let demoLoopParts = ConfigDocument(organizations: [
        .init(
            id: "org_demo", revenueCatAuthorization: .value(demoRevenueCatAuthorization),
            programs: [
                .init(
                    id: "prg_demo",
                    commission: .value(.init(percent: "20", recurring: true)))
            ])
    ])

    /// The demo organization `tolt-edge serve --demo` stores: key `pk_demo`, code `SAM20`, with
    /// ``demoLoopParts``.
    public static let demoDocument: ConfigDocument = {
        var document = demoLoopParts
        document.organizations[0].name = "Demo App"
        document.organizations[0].publicKey = "pk_demo"
        document.organizations[0].secretKey = "sk_demo"
        document.organizations[0].programs[0].name = "Demo Program"
        document.organizations[0].programs[0].googlePlayURL = .value(
            "https://play.google.com/store/apps/details?id=com.example.demo")
        document.organizations[0].programs[0].appStoreURL = .value("https://apps.apple.com/app/id000000000")
        document.organizations[0].programs[0].partners = [
            .init(id: "part_demo", name: "Sam", status: "active", codes: [.init(code: "SAM20", active: true)])
        ]
        return document
    }()
}
