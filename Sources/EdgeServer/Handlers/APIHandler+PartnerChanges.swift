import EdgeStore
import LinkCore

/// The partner API's writes and its one-partner read: `POST /v1/partners` (add a partner), `GET
/// /v1/partners/<partner_id>`, and the dashboard's partner actions as posts under it (add a code; deactivate or
/// reactivate the partner or one of its codes).
///
/// Each write is what the dashboard's form for it does: an import document for the one partner, passed through
/// ``ConfigImporter`` with the dashboard's rules (``PartnerRules``) as its `check`, so the importer's parsing, merge,
/// validation and retries are the same, and a refused post writes nothing. The table in force is then replaced with
/// the one the writer reads back (``ConfigWatcher/install(_:)``), so the new code's link answers on this node before
/// the answer goes out; other nodes of a shared store take it at their next check, as after any import.
extension APIHandler {
    /// The largest body a partner post takes, in bytes: room for 100 codes of 64 bytes and a name written as JSON
    /// writers write them by default (Python's `json.dumps` escapes every non-ASCII character as `\u00e9`, six
    /// bytes for each; 100 such codes made 19 KB, over the 16 KiB of a claim, and were refused with `413`).
    static let maximumPartnerBodySize = 64 * 1024
    /// The most codes `POST /v1/partners` creates a partner with: as many as an answer lists
    /// (``maximumListedCodes``), so the answer shows every code it made.
    static let maximumPostedCodes = maximumListedCodes
    /// The query parameters of `GET /v1/partners`.
    static let partnerListParameters: Set<String> = ["limit", "starting_after", "status"]
    /// The prefix of one partner's paths (`/v1/partners/<partner_id>…`), and its `route` label in the metrics: not
    /// `v1_partners`, the list's, which its path would make.
    static let partnerPathPrefix = "/v1/partners/"
    static let partnerRouteName = "v1_partner"

    /// `/v1/partners` with the secret key: `POST` adds a partner (``createPartner(_:organization:)``), `GET` and
    /// `HEAD` list them (``listPartners(_:organization:)``). The key is checked first, as on every `/v1` route.
    func partners(_ request: APIRequest) throws -> APIResponse {
        let organization = try authenticate(request)
        guard request.method == .post else {
            try Self.checkQuery(request, takes: Self.partnerListParameters)
            return try Self.readingCursor { try listPartners(request, organization: organization) }
        }
        try Self.refuseQuery(
            request, "POST /v1/partners", "send name, program_id, id, codes and status in the JSON body")
        return try createPartner(request, organization: organization)
    }

    /// `/v1/partners/<partner_id>` and the actions under it. The path is read first (an unknown one is the router's
    /// `404`, a method its path does not take `405` with that path's `Allow`, both before the key, as the router
    /// answers them), then the key, then the request.
    func partner(_ request: APIRequest) throws -> APIResponse {
        let path = try PartnerPath(request.path)
        guard path.methods.contains(request.method) else {
            throw APIError.methodNotAllowed(path.methods.map(\.name).joined(separator: ", "))
        }
        let organization = try authenticate(request)
        if case .partner(let id) = path {
            try Self.checkQuery(request, takes: [])
            let records = try reader.configRecords(organizationID: organization.id)
            guard let partner = PartnerRules.partner(id, of: organization, in: records)?.partner else {
                throw Self.unknownPartner(id)
            }
            return try partnerAnswer(partner, records: records, organization: organization, status: 200)
        }
        try Self.refuseQuery(request, "This POST", "it reads its JSON body alone")
        return try change(path, request: request, organization: organization)
    }

    // MARK: Adding a partner

    /// `POST /v1/partners`: the body checked (``PartnerPost``), its program found, then the partner imported with the
    /// rules of the dashboard's add-partner and add-code forms. `201` with the partner; `200` with it, nothing
    /// written, for a post naming the `id` of a partner that has its name, program and codes (a retry whose answer
    /// was lost); `409` for an `id` taken otherwise, a name the program has, a code another active partner holds.
    func createPartner(_ request: APIRequest, organization: OrganizationRecord) throws -> APIResponse {
        let post = try PartnerPost(try Self.jsonMembers(request, fields: PartnerPost.fields, noun: "a partner"))
        let programID = try program(
            post.programID, of: organization, in: try writer.configRecords(organizationID: organization.id))
        let id = post.id ?? EntityID.make(prefix: "part_")
        let status = post.status ?? "active"
        var json = JSONWriter()
        Self.importDocument(organization: organization.id, program: programID, into: &json) { partner in
            partner.string("id", id)
            partner.string("name", post.name)
            partner.string("status", status)
            if !post.codes.isEmpty {
                partner.member("codes") {
                    $0.array(post.codes) { code, json in
                        json.object {
                            $0.string("code", code)
                            $0.raw("active", "true")
                        }
                    }
                }
            }
        }
        let shared = PartnerRules.noSharedCodes(
            { _ in post.codes }, organizationID: organization.id, except: nil, refusal: Self.codeTaken)
        let check: (ConfigRecords) throws -> Void = { records in
            guard records.programs.contains(where: { $0.id == programID && $0.organizationID == organization.id })
            else { throw Self.unknownProgram(programID) }
            if let stored = records.partners.first(where: { $0.id == id }) {
                // Only a posted id can be stored already (a generated one has 120 random bits).
                throw Self.existing(stored, as: post, programID: programID, organization: organization, records)
            }
            if let named = PartnerRules.partner(named: post.name, in: programID, records) {
                throw APIError(
                    status: 409, code: "name_taken",
                    message: "Program \(programID) already has a partner named \(QuotedText.shown(post.name))"
                        + " (\(named.id)): nothing was written. Without an id the importer finds a partner by its name,"
                        + " so two of one name would make it update either")
            }
            try shared(records)
        }
        switch try save(
            json, check: check, fieldPrefix: "organizations[0].programs[0].partners[0].", organization: organization)
        {
        case .saved(let records):
            guard let partner = PartnerRules.partner(id, of: organization, in: records)?.partner else {
                throw APIError.internalError
            }
            return try partnerAnswer(partner, records: records, organization: organization, status: 201)
        case .unchanged(let partner, let records):
            return try partnerAnswer(partner, records: records, organization: organization, status: 200)
        }
    }

    /// The program a post names, or the organization's one program when it names none: `404 unknown_program` for a
    /// program that is not the organization's, `400` for none named where there are several (the partner would be
    /// put in one the caller did not choose).
    private func program(_ given: String?, of organization: OrganizationRecord, in records: ConfigRecords) throws
        -> String
    {
        let programs = records.programs.filter { $0.organizationID == organization.id }
        if let given {
            guard programs.contains(where: { $0.id == given }) else { throw Self.unknownProgram(given) }
            return given
        }
        guard programs.count == 1, let only = programs.first else {
            guard !programs.isEmpty else {
                throw APIError.notFound(
                    "This organization has no program yet: import one first (tolt-edge import)",
                    code: "unknown_program")
            }
            throw APIError.invalidRequest(
                "program_id is required: this organization has \(programs.count) programs ("
                    + programs.prefix(5).map(\.id).joined(separator: ", ") + (programs.count > 5 ? ", …" : "") + ")")
        }
        return only.id
    }

    /// What a post naming a stored partner's `id` gets: ``Unchanged`` (answered `200`) when that partner is the
    /// organization's and has the post's name, program and each posted code as it is written (active or not since,
    /// and whatever `status` the post names, since the partner may have been deactivated since: a retry is answered
    /// with the partner as it is now), else `409
    /// partner_exists` naming what differs. Another organization's partner is `409` too, saying only that the id is
    /// taken: ids are unique across the store, and nothing else of it is told.
    private static func existing(
        _ stored: PartnerRecord, as post: PartnerPost, programID: String, organization: OrganizationRecord,
        _ records: ConfigRecords
    ) -> any Error {
        guard PartnerRules.partner(stored.id, of: organization, in: records) != nil else {
            return APIError(
                status: 409, code: "partner_exists",
                message: "The partner id \(stored.id) is taken: leave id out to have one made, or choose another."
                    + " Nothing was written")
        }
        var differences: [String] = []
        if stored.programID != programID { differences.append("its program is \(stored.programID)") }
        if stored.name != post.name { differences.append("its name is \(QuotedText.shown(stored.name))") }
        let held = records.codes.filter { $0.partnerID == stored.id }
        let missing = post.codes.filter { code in !held.contains { $0.code.utf8.elementsEqual(code.utf8) } }
        if !missing.isEmpty {
            differences.append(
                "it does not hold " + missing.prefix(5).map(QuotedText.shown).joined(separator: ", ")
                    + (missing.count > 5 ? " and \(missing.count - 5) more" : ""))
        }
        guard differences.isEmpty else {
            return APIError(
                status: 409, code: "partner_exists",
                message: "Partner \(stored.id) exists, and differs from this post: "
                    + differences.joined(separator: "; ") + ". Nothing was written: change it with its own actions"
                    + " (POST /v1/partners/\(stored.id)/codes, …/deactivate, …/reactivate)")
        }
        return Unchanged(partner: stored)
    }

    // MARK: A partner's actions

    /// A post under `/v1/partners/<partner_id>/`: the dashboard's partner actions, each with the dashboard's rule
    /// (``PartnerRules``). The partner must be the organization's (else `404 unknown_partner`, whatever the rest).
    private func change(_ path: PartnerPath, request: APIRequest, organization: OrganizationRecord) throws
        -> APIResponse
    {
        let records = try writer.configRecords(organizationID: organization.id)
        guard let partner = PartnerRules.partner(path.partnerID, of: organization, in: records)?.partner else {
            throw Self.unknownPartner(path.partnerID)
        }
        let members: (inout JSONWriter.ObjectWriter) -> Void
        var check: (ConfigRecords) throws -> Void = { _ in }
        var fieldPrefix = "organizations[0].programs[0].partners[0]."
        switch path {
        case .partner:
            throw APIError.internalError
        case .addCode:
            let body = try Self.jsonMembers(request, fields: ["code"], noun: "a code")
            guard let code = try Self.stringMember(body, "code", required: true) else { throw APIError.internalError }
            members = { Self.code(code, active: true, into: &$0) }
            fieldPrefix += "codes[0]."
            let shared = PartnerRules.noSharedCodes(
                { _ in [code] }, organizationID: organization.id, except: partner.id, refusal: Self.codeTaken)
            check = { records in
                if let held = PartnerRules.heldCode(reading: code, by: partner.id, in: records) {
                    throw Self.held(held, asked: code, partner: partner)
                }
                try shared(records)
            }
        case .setPartner(_, let active):
            _ = try Self.jsonMembers(request, fields: [], noun: "this action", allowingEmpty: true)
            members = { $0.string("status", active ? "active" : "inactive") }
            if active {
                // Its active codes, as the configuration holds them when the import is planned.
                check = PartnerRules.noSharedCodes(
                    { records in records.codes.filter { $0.partnerID == partner.id && $0.active }.map(\.code) },
                    organizationID: organization.id, except: partner.id, refusal: Self.codeTaken)
            }
        case .setCode(_, let code, let active):
            _ = try Self.jsonMembers(request, fields: [], noun: "this action", allowingEmpty: true)
            // By its bytes, as stored: another spelling (`CAFE` and U+0301 for a stored `CAFÉ`) would make the import
            // write a second code rather than change this one.
            guard records.codes.contains(where: { $0.partnerID == partner.id && $0.code.utf8.elementsEqual(code.utf8) })
            else {
                throw APIError.notFound(
                    "Partner \(partner.id) has no code \(QuotedText.shown(code)): a code's address names it as stored,"
                        + " byte for byte (percent-encoded)",
                    code: "unknown_code")
            }
            members = { Self.code(code, active: active, into: &$0) }
            fieldPrefix += "codes[0]."
            if active {
                check = PartnerRules.noSharedCodes(
                    { _ in [code] }, organizationID: organization.id, except: partner.id, refusal: Self.codeTaken)
            }
        }
        var json = JSONWriter()
        Self.importDocument(organization: organization.id, program: partner.programID, into: &json) { object in
            object.string("id", partner.id)
            members(&object)
        }
        let (written, status): (ConfigRecords, Int)
        switch try save(json, check: check, fieldPrefix: fieldPrefix, organization: organization) {
        case .saved(let saved):
            // `201` for a code made, as for a partner; an action changes what exists.
            (written, status) = (saved, path == .addCode(partner.id) ? 201 : 200)
        case .unchanged(_, let saved):
            (written, status) = (saved, 200)
        }
        guard let changed = PartnerRules.partner(partner.id, of: organization, in: written)?.partner else {
            throw APIError.internalError
        }
        return try partnerAnswer(changed, records: written, organization: organization, status: status)
    }

    /// `POST …/codes` of a code the partner holds, or one that reads as a code it holds (``PartnerRules/reads(_:as:)``):
    /// ``Unchanged`` (`200`) when it is that code, as written, and active; else `409 code_held`, since the importer
    /// would take it for the held code and rename it, or leave it inactive.
    private static func held(_ held: CodeRecord, asked code: String, partner: PartnerRecord) -> any Error {
        let same = held.code.utf8.elementsEqual(code.utf8)
        if same && held.active { return Unchanged(partner: partner) }
        let address = "POST /v1/partners/\(partner.id)/codes/\(PercentEncoding.encode(held.code))/reactivate"
        return APIError(
            status: 409, code: "code_held",
            message: same
                ? "Partner \(partner.id) holds \(QuotedText.shown(code)) as an inactive code: reactivate it with"
                    + " \(address). Nothing was written"
                : "Partner \(partner.id) holds \(QuotedText.shown(held.code)), which \(QuotedText.shown(code)) reads"
                    + " as (links and claims match codes without case for A–Z, and take a full-width or composed"
                    + " spelling for it): nothing was written"
                    + (held.active ? "" : "; the code is inactive: reactivate it with \(address)"))
    }

    // MARK: Shared

    /// What ``save(_:check:fieldPrefix:organization:)`` did: written (the configuration read back after it), or nothing to write
    /// (the partner is already as posted).
    private enum Saved {
        case saved(ConfigRecords)
        case unchanged(PartnerRecord, ConfigRecords)
    }

    /// Thrown by a `check` for a post that asks for what is already stored: nothing is written, and the post is
    /// answered `200` with the partner (a retry whose answer was lost).
    private struct Unchanged: Error {
        var partner: PartnerRecord
    }

    /// Imports `json` into the store with `check` (the rules, refusing with ``APIError``s of their own), then puts the
    /// configuration the writer reads back in force on this node (``ConfigWatcher/install(_:)``). An importer's
    /// refusal is `400 invalid_request`, its path below `fieldPrefix` named as the body's field (`name: …`,
    /// `codes[1]: …`); a save that other writers kept getting ahead of is `503` with `Retry-After`.
    private func save(
        _ json: JSONWriter, check: (ConfigRecords) throws -> Void, fieldPrefix: String, organization: OrganizationRecord
    ) throws -> Saved {
        do {
            try ConfigImporter.importDocument(try ConfigDocument(json: json.bytes), into: writer, check: check)
        } catch let unchanged as Unchanged {
            // Nothing to put in force: the answer shows the partner, from its organization's configuration alone.
            let records = try writer.configRecords(organizationID: organization.id)
            return .unchanged(unchanged.partner, records)
        } catch let error as StoreError where error.isInvalidConfig {
            throw APIError.invalidRequest(Self.fieldMessage(QuotedText.escapingControls(error.message), fieldPrefix))
        } catch let error as StoreError where error.isConflict {
            throw APIError(
                status: 503, code: "unavailable",
                message: "Other writers kept changing the configuration while this change was planned: nothing was"
                    + " written; retry in a moment",
                headers: [("retry-after", "1")])
        }
        let records = try writer.configRecords()
        watcher.install(records)
        return .saved(records)
    }

    /// An importer's message with its path below `prefix` written as the body names the field: `codes[1].code: …` as
    /// `codes[1]: …`, a code action's `codes[0].code: …` as `code: …`.
    static func fieldMessage(_ message: String, _ prefix: String) -> String {
        guard message.hasPrefix(prefix) else { return message }
        var rest = String(message.dropFirst(prefix.count))
        if prefix.hasSuffix("codes[0].") {
            rest = "code" + (rest.hasPrefix("code") ? String(rest.dropFirst("code".count)) : ": " + rest)
        } else if rest.hasPrefix("codes["), let dot = rest.firstRange(of: "].code") {
            rest = String(rest[..<dot.lowerBound]) + "]" + String(rest[dot.upperBound...])
        }
        return rest
    }

    /// `{"organizations":[{"id":…,"programs":[{"id":…,"partners":[{…}]}]}]}`, the partner's members written by
    /// `partner`: an import document for the one partner, as the dashboard's forms write one.
    private static func importDocument(
        organization: String, program: String, into json: inout JSONWriter,
        partner: (inout JSONWriter.ObjectWriter) -> Void
    ) {
        json.object { document in
            document.member("organizations") {
                $0.array([organization]) { organization, json in
                    json.object {
                        $0.string("id", organization)
                        $0.member("programs") {
                            $0.array([program]) { program, json in
                                json.object {
                                    $0.string("id", program)
                                    $0.member("partners") {
                                        $0.array([()]) { _, json in json.object(partner) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `"codes":[{"code":…,"active":…}]`.
    private static func code(_ code: String, active: Bool, into object: inout JSONWriter.ObjectWriter) {
        object.member("codes") {
            $0.array([code]) { code, json in
                json.object {
                    $0.string("code", code)
                    $0.raw("active", active ? "true" : "false")
                }
            }
        }
    }

    /// The partner in the shape `GET /v1/partners` lists it, as `{"success":true,"data":{…}}`, with `status`.
    private func partnerAnswer(
        _ partner: PartnerRecord, records: ConfigRecords, organization: OrganizationRecord, status: Int
    ) throws -> APIResponse {
        let balance =
            try reader.partnerBalances(organizationID: organization.id, partnerIDs: [partner.id])[partner.id]
            ?? PartnerBalance()
        let codes = records.codes.filter { $0.partnerID == partner.id }
            .sorted { Array($0.code.utf8).lexicographicallyPrecedes(Array($1.code.utf8)) }
        let item = PartnerListItem(partner: partner, codes: codes, balance: balance)
        var response = APIResponse.success { object in
            object.member("data") { ResourceJSON.partner(item, into: &$0) }
        }
        response.status = status
        return response
    }

    /// `404 unknown_partner`: another organization's partner reads as no partner, so the key tells nothing of it.
    static func unknownPartner(_ id: String) -> APIError {
        APIError.notFound(
            "partner_id \(QuotedText.shown(id)) is not a partner of this organization", code: "unknown_partner")
    }

    static func unknownProgram(_ id: String) -> APIError {
        APIError.notFound(
            "program_id \(QuotedText.shown(id)) is not a program of this organization", code: "unknown_program")
    }

    /// `409 code_taken`: the dashboard's shared-code rule (``PartnerRules/activeHolder(of:in:organizationID:except:)``).
    static func codeTaken(_ code: String, _ holder: PartnerRecord) -> any Error {
        APIError(
            status: 409, code: "code_taken",
            message: "\(QuotedText.shown(code)) is an active code of \(holder.id) (\(QuotedText.shown(holder.name))),"
                + " or reads as one; a code two active partners share stops working for both: nothing was written")
    }

    /// A string member: `nil` when absent or `null` (`400` when `required`); `400` for another type, an empty string
    /// or a control character (a line break, NUL, ESC), which no name, id or code may hold.
    static func stringMember(_ members: [String: JSONValue], _ name: String, required: Bool) throws(APIError) -> String?
    {
        switch members[name] {
        case nil, .null?:
            if required { throw .invalidRequest("\(name) is required") }
            return nil
        case .string(let value)?:
            guard !value.isEmpty else { throw .invalidRequest("\(name) must not be empty") }
            if let problem = ClaimRequest.controlCharacterProblem(value, name: name) {
                throw .invalidRequest(problem)
            }
            return value
        case let other?:
            throw .invalidRequest("\(name) must be a string, not \(other.typeName)")
        }
    }

    /// Refuses a post with a query string: its fields come from its body alone.
    static func refuseQuery(_ request: APIRequest, _ route: String, _ instead: String) throws {
        guard !request.query.isEmpty || request.queryProblem != nil || !request.rawQuery.isEmpty else { return }
        throw APIError.invalidRequest("\(route) takes no query parameters: \(instead)")
    }

    /// The members of a JSON post's body (`POST /v1/partners` and its actions, `POST /v1/payouts`): one
    /// `Content-Type`, JSON (`415` otherwise), at most `limit` bytes (`413`), an object of `fields` only, each once
    /// (`400` naming the member). `allowingEmpty`: an action that takes no field also takes no body at all.
    static func jsonMembers(
        _ request: APIRequest, fields: [String], noun: String, allowingEmpty: Bool = false,
        limit: Int = maximumPartnerBodySize
    ) throws -> [String: JSONValue] {
        if allowingEmpty && request.body.isEmpty { return [:] }
        try request.requireOneContentType()
        do {
            try ClaimRequest.checkContentType(request.headers[.contentType])
        } catch {
            throw APIError(error)
        }
        guard request.body.count <= limit else { throw APIError.payloadTooLarge(limit: limit) }
        let root: JSONValue
        do { root = try JSONParser.parse(request.body) } catch {
            throw APIError.invalidRequest("The body is not valid JSON: \(error)")
        }
        guard case .object(let members) = root else { throw APIError.invalidRequest("The body must be a JSON object") }
        var found: [String: JSONValue] = [:]
        var names = Set<[UInt8]>()
        for member in members {
            guard fields.contains(member.key) else {
                throw APIError.invalidRequest(
                    "The body names \(QuotedText.shown(member.key)), which is not a field of \(noun)"
                        + (fields.isEmpty ? ": it takes none" : ": it takes " + fields.sorted().joined(separator: ", "))
                )
            }
            guard names.insert(Array(member.key.utf8)).inserted else {
                throw APIError.invalidRequest("The body names \(member.key) more than once")
            }
            found[member.key] = member.value
        }
        return found
    }
}

/// A path under `/v1/partners/`: one partner, or one of its actions. Segments are percent-decoded as a path's are
/// (`+` stays a plus, a code may hold one), and must be UTF-8.
enum PartnerPath: Equatable {
    case partner(String)
    case addCode(String)
    case setPartner(String, active: Bool)
    case setCode(String, code: String, active: Bool)

    /// `404` (the router's, "No such path") for a path that is none of these; `400` for an escape that cannot be read.
    init(_ path: String) throws(APIError) {
        let rest = path.utf8.dropFirst(APIHandler.partnerPathPrefix.utf8.count)
        let raw = rest.split(separator: 0x2F, omittingEmptySubsequences: false)
        guard (1...4).contains(raw.count), raw.allSatisfy({ !$0.isEmpty }) else { throw Self.noSuchPath(path) }
        var segments: [String] = []
        for segment in raw {
            guard let decoded = Self.decoded(Array(segment)) else {
                throw .invalidRequest(
                    "The path cannot be read: each % must start an escape of two hex digits, and the decoded text"
                        + " must be UTF-8")
            }
            segments.append(decoded)
        }
        let id = segments[0]
        switch (segments.count, segments.count > 1 ? segments[1] : "") {
        case (1, _): self = .partner(id)
        case (2, "codes"): self = .addCode(id)
        case (2, "deactivate"): self = .setPartner(id, active: false)
        case (2, "reactivate"): self = .setPartner(id, active: true)
        case (4, "codes") where segments[3] == "deactivate": self = .setCode(id, code: segments[2], active: false)
        case (4, "codes") where segments[3] == "reactivate": self = .setCode(id, code: segments[2], active: true)
        default: throw Self.noSuchPath(path)
        }
    }

    var partnerID: String {
        switch self {
        case .partner(let id), .addCode(let id), .setPartner(let id, _), .setCode(let id, _, _): id
        }
    }

    /// The methods the path takes (`HEAD` wherever `GET`).
    var methods: [HTTPMethod] {
        if case .partner = self { return [.get, .head] }
        return [.post]
    }

    private static func noSuchPath(_ path: String) -> APIError {
        .notFound("No such path: " + String(decoding: Array(path.utf8.prefix(200)), as: UTF8.self))
    }

    private static func decoded(_ segment: [UInt8]) -> String? {
        var output = [UInt8](repeating: 0, count: segment.count)
        let count = segment.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { PercentEncoding.decodeSegment(input, into: $0) }
        }
        guard let count else { return nil }
        return String(validating: output[..<count], as: UTF8.self)
    }
}

/// A `POST /v1/partners` body, checked: `name` (required), `program_id`, `id`, `codes` (an array of strings, at most
/// ``APIHandler/maximumPostedCodes``) and `status` (`active` or `inactive`), each optional. What the importer checks
/// (the name's, the codes' and the id's syntax) it checks when the partner is imported, naming the field the same
/// way; this refuses what the import document could not say (a wrong JSON type, a control character, two codes
/// that read as one).
struct PartnerPost {
    static let fields = ["name", "program_id", "id", "codes", "status"]

    var name: String
    var programID: String?
    var id: String?
    var codes: [String]
    var status: String?

    init(_ members: [String: JSONValue]) throws(APIError) {
        // Trimmed as the dashboard's form trims it: " Dave " is Dave, and meets the program's other Dave.
        name = try APIHandler.stringMember(members, "name", required: true)!.trimmingSpaces
        guard !name.isEmpty else { throw .invalidRequest("name must show a character, not only spaces") }
        programID = try APIHandler.stringMember(members, "program_id", required: false)
        if let programID, programID.utf8.count > 64 {
            throw .invalidRequest("program_id must be a program id of 1 to 64 bytes")
        }
        id = try APIHandler.stringMember(members, "id", required: false)
        status = try APIHandler.stringMember(members, "status", required: false)
        if let status, status != "active", status != "inactive" {
            throw .invalidRequest("status must be \"active\" or \"inactive\"")
        }
        codes = []
        switch members["codes"] {
        case nil, .null?: break
        case .array(let items)?:
            guard items.count <= APIHandler.maximumPostedCodes else {
                throw .invalidRequest("codes holds \(items.count) codes: at most \(APIHandler.maximumPostedCodes)")
            }
            for (index, item) in items.enumerated() {
                guard case .string(let code) = item else {
                    throw .invalidRequest("codes[\(index)] must be a string, not \(item.typeName)")
                }
                if let problem = ClaimRequest.controlCharacterProblem(code, name: "codes[\(index)]") {
                    throw .invalidRequest(problem)
                }
                // The dashboard adds codes one at a time, refusing one that reads as a code the partner holds; the
                // importer takes two such spellings arriving together (an export's copy) with a warning only.
                if let earlier = codes.firstIndex(where: { PartnerRules.reads(code, as: $0) }) {
                    throw .invalidRequest(
                        "codes[\(index)] \(QuotedText.shown(code)) reads as codes[\(earlier)]"
                            + " \(QuotedText.shown(codes[earlier])): links and claims would take one for the other")
                }
                codes.append(code)
            }
        case let other?:
            throw .invalidRequest("codes must be an array of strings, not \(other.typeName)")
        }
    }
}
