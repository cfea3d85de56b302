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
                    "SELECT \(Self.organizationColumns) FROM organizations ORDER BY id", [], Self.organization)
                records.programs = try db.rows(
                    "SELECT \(Self.programColumns) FROM programs ORDER BY id", [], Self.program)
                records.partners = try db.rows(
                    "SELECT \(Self.partnerColumns) FROM partners ORDER BY id", [], Self.partner)
                records.codes = try db.rows(
                    "SELECT \(Self.codeColumns) FROM codes ORDER BY reference", [], Self.code)
                return records
            }
        }
    }

    public func configRecords(organizationID: String) throws -> ConfigRecords {
        try withConnection { db in
            // One snapshot, as configRecords(): an import is seen whole or not at all. Each read goes down from the
            // organization by index (`programs_by_organization`, `partners_by_program`, the codes' unique
            // `(partner_id, code_folded)`), so it reads the organization's rows and no other's; the sorts are of those
            // rows alone.
            try db.readTransaction {
                let id: [SQLValue] = [.text(organizationID)]
                var records = ConfigRecords()
                records.revision = try Self.revision(db)
                records.organizations = try db.rows(
                    "SELECT \(Self.organizationColumns) FROM organizations WHERE id = ?", id, Self.organization)
                records.programs = try db.rows(Self.organizationProgramsSQL, id, Self.program)
                records.partners = try db.rows(Self.organizationPartnersSQL, id, Self.partner)
                records.codes = try Self.codes(of: records.partners.map(\.id), db)
                return records
            }
        }
    }

    /// An organization's programs, in id order, from `programs_by_organization` (which holds them in that order).
    static var organizationProgramsSQL: String {
        "SELECT \(programColumns) FROM programs WHERE organization_id = ? ORDER BY id"
    }

    /// An organization's partners, in id order: its programs, then each program's partners by `partners_by_program`.
    static var organizationPartnersSQL: String {
        """
        SELECT partners.id, partners.program_id, partners.name, partners.status FROM programs
        JOIN partners ON partners.program_id = programs.id
        WHERE programs.organization_id = ? ORDER BY partners.id
        """
    }

    /// The codes of `partnerIDs`, in reference order, read ``codesChunk`` partners at a time
    /// (``organizationCodesSQL``). By the partners' ids rather than by a join from the organization: PostgreSQL plans
    /// a join by the average partners per program, and on a store where one organization's program has 50 partners
    /// and others' 10,000 it hashed the organization's 50 and scanned all 120,050 codes (39 ms a read); a list of ids
    /// is looked up in the codes' unique index whatever the other programs hold, on both stores.
    static func codes(of partnerIDs: [String], _ db: Connection) throws -> [CodeRecord] {
        var codes: [(reference: Int64, record: CodeRecord)] = []
        var start = 0
        while start < partnerIDs.count {
            let end = min(start + codesChunk, partnerIDs.count)
            // The last chunk padded with its last id: one statement, prepared once per connection.
            let bindings = (0..<codesChunk).map { SQLValue.text(partnerIDs[min(start + $0, end - 1)]) }
            codes += try db.rows(organizationCodesSQL, bindings) { ($0.int(0), code($0)) }
            start = end
        }
        return codes.sorted { $0.reference < $1.reference }.map(\.record)
    }

    /// The partners whose codes one statement reads: an organization of 50 partners reads them in one, one of
    /// 10,000 in 100.
    static var codesChunk: Int { 100 }

    /// The codes of ``codesChunk`` partners, by the codes' unique index, which starts with `partner_id`.
    static var organizationCodesSQL: String {
        "SELECT \(codeColumns) FROM codes WHERE partner_id IN ("
            + repeatElement("?", count: codesChunk).joined(separator: ", ") + ")"
    }

    /// The columns each record is read from, in the order of the row readers below (an organization's partners
    /// are read naming their table, as they join).
    private static var organizationColumns: String {
        "id, name, public_key, secret_key, revenuecat_authorization, timezone"
    }
    private static var programColumns: String {
        """
        id, organization_id, name, claim_window_days, deep_link_template, google_play_url, app_store_url,
            commission_percent_bp, commission_fixed_cents, commission_recurring, commission_duration_months, app_name,
            app_icon_url, brand_color, og_image_url, og_description, ios_app_ids, android_apps
        """
    }
    private static var partnerColumns: String { "id, program_id, name, status" }
    private static var codeColumns: String { "reference, partner_id, code, active" }

    private static func organization(_ row: Connection.Row) -> OrganizationRecord {
        OrganizationRecord(
            id: row.text(0), name: row.text(1), publicKey: row.text(2), secretKeyDigest: row.text(3),
            revenueCatAuthorizationDigest: row.optionalText(4), timezone: row.text(5))
    }

    private static func program(_ row: Connection.Row) -> ProgramRecord {
        ProgramRecord(
            id: row.text(0), organizationID: row.text(1), name: row.text(2),
            claimWindowDays: row.optionalInt(3).map { Int($0) }, deepLinkTemplate: row.optionalText(4),
            googlePlayURL: row.optionalText(5), appStoreURL: row.optionalText(6),
            commission: commission(row, from: 7), appName: row.optionalText(11), appIconURL: row.optionalText(12),
            brandColor: row.optionalText(13), ogImageURL: row.optionalText(14), ogDescription: row.optionalText(15),
            iosAppIDs: AppLinkColumns.iosAppIDs(row.optionalText(16)),
            androidApps: AppLinkColumns.androidApps(row.optionalText(17)))
    }

    private static func partner(_ row: Connection.Row) -> PartnerRecord {
        PartnerRecord(id: row.text(0), programID: row.text(1), name: row.text(2), status: row.text(3))
    }

    private static func code(_ row: Connection.Row) -> CodeRecord {
        CodeRecord(
            reference: UInt32(truncatingIfNeeded: row.int(0)), partnerID: row.text(1), code: row.text(2),
            active: row.int(3) != 0)
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
