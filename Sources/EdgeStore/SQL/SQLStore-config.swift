import LinkCore

extension SQLStore {
    public func configRevision() throws -> Int64 {
        try withConnection { try Self.revision($0) }
    }

    static func revision(_ db: Connection) throws -> Int64 {
        var revision: Int64 = 0
        try db.query(dialect.configRevision) { revision = $0.int(0) }
        return revision
    }

    public func configRecords() throws -> ConfigRecords {
        try withConnection { db in
            // One snapshot for every table: a concurrent import is seen whole or not at all.
            try db.readTransaction {
                var records = ConfigRecords()
                records.revision = try Self.revision(db)
                records.organizations = try db.rows(
                    """
                    SELECT id, name, public_key, secret_key, revenuecat_authorization, timezone FROM organizations
                    ORDER BY id
                    """
                ) {
                    OrganizationRecord(
                        id: $0.text(0), name: $0.text(1), publicKey: $0.text(2), secretKeyDigest: $0.text(3),
                        revenueCatAuthorizationDigest: $0.optionalText(4), timezone: $0.text(5))
                }
                records.programs = try db.rows(
                    """
                    SELECT id, organization_id, name, claim_window_days, deep_link_template, google_play_url,
                        app_store_url, commission_percent_bp, commission_fixed_cents, commission_recurring,
                        commission_duration_months, app_name, app_icon_url, brand_color, og_image_url, og_description,
                        ios_app_ids, android_apps
                    FROM programs ORDER BY id
                    """
                ) {
                    ProgramRecord(
                        id: $0.text(0), organizationID: $0.text(1), name: $0.text(2),
                        claimWindowDays: $0.optionalInt(3).map { Int($0) }, deepLinkTemplate: $0.optionalText(4),
                        googlePlayURL: $0.optionalText(5), appStoreURL: $0.optionalText(6),
                        commission: Self.commission($0, from: 7), appName: $0.optionalText(11),
                        appIconURL: $0.optionalText(12), brandColor: $0.optionalText(13),
                        ogImageURL: $0.optionalText(14), ogDescription: $0.optionalText(15),
                        iosAppIDs: AppLinkColumns.iosAppIDs($0.optionalText(16)),
                        androidApps: AppLinkColumns.androidApps($0.optionalText(17)))
                }
                records.partners = try db.rows("SELECT id, program_id, name, status FROM partners ORDER BY id") {
                    PartnerRecord(id: $0.text(0), programID: $0.text(1), name: $0.text(2), status: $0.text(3))
                }
                records.codes = try db.rows("SELECT reference, partner_id, code, active FROM codes ORDER BY reference")
                {
                    CodeRecord(
                        reference: UInt32(truncatingIfNeeded: $0.int(0)), partnerID: $0.text(1), code: $0.text(2),
                        active: $0.int(3) != 0)
                }
                return records
            }
        }
    }

    public func isPartner(_ partnerID: String, of organizationID: String) throws -> Bool {
        try withConnection { db in
            var found = false
            try db.query(
                """
                SELECT 1 FROM partners JOIN programs ON programs.id = partners.program_id
                WHERE partners.id = ? AND programs.organization_id = ?
                """, [.text(partnerID), .text(organizationID)]
            ) { _ in found = true }
            return found
        }
    }

    public func applyConfig(_ changes: ConfigChanges, expectedRevision: Int64) throws {
        try withConnection { db in
            try db.transaction {
                // Read for update: a second import waits here for the first to commit, then sees its revision and
                // reports the conflict instead of overwriting what it merged.
                var revision: Int64 = 0
                try db.query(Self.dialect.configRevisionForUpdate) { revision = $0.int(0) }
                guard revision == expectedRevision else {
                    throw StoreError.conflict("the configuration changed while it was being merged")
                }
                for organization in changes.organizations {
                    try db.query(
                        """
                        INSERT INTO organizations (id, name, public_key, secret_key, revenuecat_authorization, timezone)
                            VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET name = excluded.name, public_key = excluded.public_key,
                            secret_key = excluded.secret_key,
                            revenuecat_authorization = excluded.revenuecat_authorization, timezone = excluded.timezone
                        """,
                        [
                            .text(organization.id), .text(organization.name), .text(organization.publicKey),
                            .text(organization.secretKeyDigest), .optional(organization.revenueCatAuthorizationDigest),
                            .text(organization.timezone),
                        ])
                }
                for program in changes.programs {
                    try db.query(
                        """
                        INSERT INTO programs (id, organization_id, name, claim_window_days, deep_link_template,
                            google_play_url, app_store_url, commission_percent_bp, commission_fixed_cents,
                            commission_recurring, commission_duration_months, app_name, app_icon_url, brand_color,
                            og_image_url, og_description, ios_app_ids, android_apps)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id,
                            name = excluded.name, claim_window_days = excluded.claim_window_days,
                            deep_link_template = excluded.deep_link_template,
                            google_play_url = excluded.google_play_url, app_store_url = excluded.app_store_url,
                            commission_percent_bp = excluded.commission_percent_bp,
                            commission_fixed_cents = excluded.commission_fixed_cents,
                            commission_recurring = excluded.commission_recurring,
                            commission_duration_months = excluded.commission_duration_months,
                            app_name = excluded.app_name, app_icon_url = excluded.app_icon_url,
                            brand_color = excluded.brand_color, og_image_url = excluded.og_image_url,
                            og_description = excluded.og_description, ios_app_ids = excluded.ios_app_ids,
                            android_apps = excluded.android_apps
                        """,
                        [
                            .text(program.id), .text(program.organizationID), .text(program.name),
                            .optional(program.claimWindowDays), .optional(program.deepLinkTemplate),
                            .optional(program.googlePlayURL), .optional(program.appStoreURL),
                        ] + Self.commissionColumns(program.commission) + [
                            .optional(program.appName), .optional(program.appIconURL), .optional(program.brandColor),
                            .optional(program.ogImageURL), .optional(program.ogDescription),
                            .optional(AppLinkColumns.text(program.iosAppIDs)),
                            .optional(AppLinkColumns.text(program.androidApps)),
                        ])
                }
                for partner in changes.partners {
                    try db.query(
                        """
                        INSERT INTO partners (id, program_id, name, status) VALUES (?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET program_id = excluded.program_id, name = excluded.name,
                            status = excluded.status
                        """, [.text(partner.id), .text(partner.programID), .text(partner.name), .text(partner.status)])
                }
                for code in changes.codes {
                    try db.query(
                        """
                        INSERT INTO codes (partner_id, code, code_folded, active) VALUES (?, ?, ?, ?)
                        ON CONFLICT (partner_id, code_folded) DO UPDATE SET code = excluded.code,
                            active = excluded.active
                        """,
                        [
                            .text(code.partnerID), .text(code.code), .text(ASCII.lowercased(code.code)),
                            .integer(code.active ? 1 : 0),
                        ])
                }
                try db.query(Self.dialect.configRevisionIncrement)
                if let notice = Self.dialect.configChangeNotice { try db.execute(notice) }
            }
        }
    }

    /// A program's rule from its four commission columns starting at `column`: percent (basis points) or
    /// fixed cents, recurring, duration. No amount is no rule.
    private static func commission(_ row: Connection.Row, from column: Int32) -> CommissionRule? {
        let amount: CommissionRule.Amount
        if let basisPoints = row.optionalInt(column) {
            amount = .percent(basisPoints: Int(basisPoints))
        } else if let cents = row.optionalInt(column + 1) {
            amount = .fixedCents(Int(cents))
        } else {
            return nil
        }
        return CommissionRule(
            amount: amount, recurring: row.optionalInt(column + 2).map { $0 != 0 } ?? true,
            durationMonths: row.optionalInt(column + 3).map { Int($0) })
    }

    /// The four commission columns' values for `rule`, all null without one.
    private static func commissionColumns(_ rule: CommissionRule?) -> [SQLValue] {
        guard let rule else { return [.null, .null, .null, .null] }
        var percent: Int?
        var fixedCents: Int?
        switch rule.amount {
        case .percent(let basisPoints): percent = basisPoints
        case .fixedCents(let cents): fixedCents = cents
        }
        return [
            .optional(percent), .optional(fixedCents), .integer(rule.recurring ? 1 : 0), .optional(rule.durationMonths),
        ]
    }
}
