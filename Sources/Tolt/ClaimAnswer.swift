import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The edge's answer to `POST /client/claims`, read into a result or an error; no I/O, so every answer shape
/// is tested without a socket.
///
/// Success is `200 {"success":true,"message":"Success","data":{"status":"claimed","app_user_id":"…"}}` (with
/// `"same_claim":true|false` beside `already_claimed`); a
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

        enum CodingKeys: String, CodingKey {
            case status
            case appUserId = "app_user_id"
            case sameClaim = "same_claim"
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
                    isSameClaim: payload.sameClaim ?? false))
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

    /// A `Retry-After` value in seconds from now: delta-seconds (`30`) or an HTTP date; `nil` when unreadable.
    static func seconds(retryAfter value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = TimeInterval(text) { return seconds >= 0 && seconds.isFinite ? seconds : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// The start of a body, for a message about an answer that was not understood.
    private static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "empty body" : text
    }
}
