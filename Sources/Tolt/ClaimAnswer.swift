import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The edge's answer to `POST /client/claims`, read into a result or an error; no I/O, so every answer shape
/// is tested without a socket.
///
/// Success is `200 {"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"…"}}` (with
/// `"same_claim":true|false` beside `already_claimed`, and `"code":"…","partner_name":"…"|null` beside `claimed` and
/// a same claim); a
/// refusal is `{"success":false,"message":"…","error":"<machine code>"}` with its status (and `Retry-After` on
/// a `429`).
enum ClaimAnswer {
    private struct Envelope: Decodable {
        var success: Bool?
        var message: String?
        var error: String?
        var data: Payload?
    }

    private struct Payload: Decodable {
        var status: String
        var appUserId: String
        /// Sent with `already_claimed` (absent from an older edge's answer: `false`).
        var sameClaim: Bool?
        /// Sent with `claimed` and a same claim (absent from an older edge's answer, and from another claim's).
        var code: String?
        /// Sent beside `code`, `null` for a partner without a name to show.
        var partnerName: String?

        enum CodingKeys: String, CodingKey {
            case status
            case appUserId = "app_user_id"
            case sameClaim = "same_claim"
            case code
            case partnerName = "partner_name"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(String.self, forKey: .status)
            appUserId = try container.decode(String.self, forKey: .appUserId)
            sameClaim = try container.decodeIfPresent(Bool.self, forKey: .sameClaim)
            // Only for showing: the claim succeeded whatever they hold, so a value that is not a string (whatever
            // answered for the edge wrote it) reads as absent rather than failing the claim.
            code = (try? container.decodeIfPresent(String.self, forKey: .code)) ?? nil
            partnerName = (try? container.decodeIfPresent(String.self, forKey: .partnerName)) ?? nil
        }
    }

    /// The result of an answer with HTTP status `status`, header `Retry-After` (`retryAfter`) and `body`.
    static func interpret(status: Int, retryAfter: String?, body: Data, now: Date) -> Result<ClaimResult, ToltError> {
        let envelope = try? JSONDecoder().decode(Envelope.self, from: body)
        if (200..<300).contains(status) {
            // A status this SDK does not name is still a success: a newer edge's, carried with its raw value.
            guard let envelope, envelope.success == true, let payload = envelope.data, !payload.status.isEmpty else {
                return .failure(
                    .unexpectedResponse("HTTP \(status) without a claim result: \(excerpt(body))", httpStatus: status))
            }
            return .success(
                ClaimResult(
                    status: ClaimResult.Status(rawValue: payload.status), appUserId: payload.appUserId,
                    isSameClaim: payload.sameClaim ?? false, code: payload.code, partnerName: payload.partnerName))
        }
        let wait = retryAfter.flatMap { seconds(retryAfter: $0, now: now) }
        if let envelope, let code = envelope.error, envelope.success == false {
            return .failure(
                .refusal(code: code, message: envelope.message ?? code, httpStatus: status, retryAfter: wait))
        }
        if status == 429 {
            return .failure(
                .refusal(code: "rate_limited", message: "HTTP 429: \(excerpt(body))", httpStatus: 429, retryAfter: wait)
            )
        }
        if status >= 500 {
            return .failure(
                .server(httpStatus: status, message: "HTTP \(status): \(excerpt(body))", code: nil, retryAfter: wait))
        }
        return .failure(.unexpectedResponse("HTTP \(status): \(excerpt(body))", httpStatus: status))
    }

    /// The longest wait a `Retry-After` is read as, a day: the header comes from whatever answers for the edge (a CDN,
    /// a proxy, a captive portal), which may send any number, and no app should be told to wait longer.
    static let longestRetryAfter = 86_400

    /// A `Retry-After` value in seconds from now, at most ``longestRetryAfter``, as RFC 9110 (§10.2.3) writes it:
    /// delay-seconds, ASCII digits only (`30`), or an HTTP date in any of its three forms (§5.6.7). `nil` for
    /// anything else: a sign, a fraction, an exponent (`1e300`), `NaN`, other scripts' digits.
    static func seconds(retryAfter value: String, now: Date) -> TimeInterval? {
        // The field's optional whitespace, spaces and tabs (§5.5).
        let text = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if let seconds = delaySeconds(text) { return TimeInterval(seconds) }
        guard let date = httpDate(text) else { return nil }
        let wait = date.timeIntervalSince(now)
        guard wait.isFinite else { return nil }
        return min(max(0, wait), TimeInterval(longestRetryAfter))
    }

    /// `1*DIGIT` read as seconds, saturating at ``longestRetryAfter`` (`99999999999999999999` is a day).
    private static func delaySeconds(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var seconds = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            seconds = min(seconds * 10 + Int(byte - UInt8(ascii: "0")), longestRetryAfter)
        }
        return seconds
    }

    /// The forms of an HTTP date a recipient must read (RFC 9110 §5.6.7): IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime's
    /// (`Sun Nov  6 08:49:37 1994`, whose day may be padded with a space).
    private static let httpDateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // asctime pads a one-digit day with a space: `Nov  6`.
        let single = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in httpDateFormats {
            formatter.dateFormat = format
            if let date = formatter.date(from: single) { return date }
        }
        return nil
    }

    /// The start of a body, for a message about an answer that was not understood.
    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "empty body" : text
    }
}
