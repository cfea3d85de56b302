import EdgeStore
import LinkCore

/// The rules a partner or code must pass beyond the importer's own, shared by the dashboard's partner forms and the
/// partner API (`POST /v1/partners` and its actions), so that a partner added either way is held to the same ones.
///
/// Each refusal runs as the `check` of ``ConfigImporter/importDocument(_:into:check:)``: on the configuration the
/// import is planned against, again at each retry, so two saves racing (a double click, two nodes, a script and the
/// dashboard) cannot both pass it. Moved here from `DashboardHandler+Partners.swift`, where they were the dashboard's.
enum PartnerRules {
    /// Whether `code` reads as `held`: the same code in any case (codes match without case for ASCII letters, as links
    /// match them: `É` is not `é`), or a lookalike of it (``CodeLookalikes``: `CAFE` and U+0301 for `CAFÉ`, the
    /// full-width `ＳＡＭ２０` for `SAM20`, which links and claims now take for it).
    static func reads(_ code: String, as held: String) -> Bool {
        ASCII.lowercased(held) == ASCII.lowercased(code) || CodeLookalikes.kind(held, code) != nil
    }

    /// The active partner of the organization, other than `partnerID`, that holds `code`, or a code it reads as
    /// (``reads(_:as:)``), as an active code. The importer only warns about such a code (an import file may mean it);
    /// the dashboard refuses it, since a code two active partners share stops working for both (links `404`, claims
    /// `409`), and a lookalike of another partner's code leaves a person reaching one or the other by how they type it.
    static func activeHolder(
        of code: String, in records: ConfigRecords, organizationID: String, except partnerID: String? = nil
    ) -> PartnerRecord? {
        let programs = Set(records.programs.filter { $0.organizationID == organizationID }.map(\.id))
        let holders = Set(
            records.codes.filter { $0.active && $0.partnerID != partnerID && reads(code, as: $0.code) }.map(\.partnerID)
        )
        return records.partners.first {
            holders.contains($0.id) && programs.contains($0.programID) && $0.status == "active"
        }
    }

    /// The check a partner form's save runs on the configuration it is about to change: none of `codes` (read from
    /// that configuration) may be an active code of another active partner of the organization. It runs inside the
    /// importer's loop (``ConfigImporter/importDocument(_:into:check:)``), so two saves racing cannot both pass it.
    /// `refusal` is what it throws, given the code and its holder: the dashboard's message (an import error, shown
    /// beside the field) unless the caller answers otherwise (the API's `409 code_taken`).
    static func noSharedCodes(
        _ codes: @escaping (ConfigRecords) -> [String], organizationID: String, except partnerID: String?,
        refusal: @escaping (String, PartnerRecord) -> any Error = {
            StoreError.invalidConfig(sharedCodeMessage($0, $1))
        }
    ) -> (ConfigRecords) throws -> Void {
        { records in
            for code in codes(records) where !code.isEmpty {
                if let holder = activeHolder(of: code, in: records, organizationID: organizationID, except: partnerID) {
                    throw refusal(code, holder)
                }
            }
        }
    }

    static func sharedCodeMessage(_ code: String, _ holder: PartnerRecord) -> String {
        "code: \(code) is already a code of \(holder.name); a code two active partners share stops working for both"
    }

    /// The partner `id` and its program, when the partner belongs to `organization` (another organization's partner
    /// reads as none): the dashboard's partner pages and the partner API find a partner by it.
    static func partner(_ id: String, of organization: OrganizationRecord, in records: ConfigRecords)
        -> (partner: PartnerRecord, program: ProgramRecord)?
    {
        guard let partner = records.partners.first(where: { $0.id == id }),
            let program = records.programs.first(where: {
                $0.id == partner.programID && $0.organizationID == organization.id
            })
        else { return nil }
        return (partner, program)
    }

    /// The partner of the program named `name` (Swift's `==`, as the importer matches a partner by name), if any.
    static func partner(named name: String, in programID: String, _ records: ConfigRecords) -> PartnerRecord? {
        records.partners.first { $0.programID == programID && $0.name == name }
    }

    /// Refuses a partner name the program already has. Without an id the importer matches a partner by name, so a
    /// second one would make `tolt-edge import` update whichever comes first. It runs in the importer's loop, as
    /// ``noSharedCodes(_:organizationID:except:refusal:)`` does: two posts of one name at once (a double click, or two
    /// nodes) cannot both pass it, since the second is planned again on the configuration the first wrote.
    static func notNamedYet(_ name: String, in programID: String, _ records: ConfigRecords) throws {
        guard partner(named: name, in: programID, records) != nil else { return }
        throw StoreError.invalidConfig(
            "organizations[0].programs[0].partners[0].name: this program already has a partner named \(name)")
    }

    /// The partner's code that `code` reads as (``reads(_:as:)``), the same bytes included, if any.
    static func heldCode(reading code: String, by partnerID: String, in records: ConfigRecords) -> CodeRecord? {
        records.codes.first { $0.partnerID == partnerID && reads(code, as: $0.code) }
    }

    /// Refuses a code the partner already holds, in any case (codes match without case for ASCII letters): the
    /// importer would take it as that code and rename it (`SAM20` to `sam20`), so its deactivate address and the
    /// `{code}` its links send would change, or reactivate it without a word. So is one that reads as such a code
    /// (``reads(_:as:)``), which the importer refuses.
    static func notAlreadyHeld(_ code: String, by partnerID: String, in records: ConfigRecords) throws {
        guard
            let held = heldCode(reading: code, by: partnerID, in: records),
            let partner = records.partners.first(where: { $0.id == partnerID })
        else { return }
        throw StoreError.invalidConfig(
            "\(partner.name) already has the code \(held.code)"
                + (held.active ? "" : " (inactive: reactivate it above)"))
    }
}
