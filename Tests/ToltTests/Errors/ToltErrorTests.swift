import Foundation
import Testing

@testable import Tolt

/// `ToltError`'s kinds: matched by `==` and in `catch` patterns, whatever the message and details.
@Suite(.highPriority) struct ToltErrorTests {
    static let refused = ToltError.refusal(
        code: "unknown_code", message: "code is unknown, inactive, or its partner is inactive", httpStatus: 404,
        retryAfter: nil)

    @Test func equalityIsByKind() {
        #expect(Self.refused == .unknownCode)
        #expect(Self.refused != .unknownClick)
        #expect(ToltError.network(URLError(.timedOut)) == .network)
        #expect(ToltError.network(URLError(.timedOut)) == ToltError.network(URLError(.badURL)))
        #expect(ToltError.notConfigured != .invalidRequest)
    }

    @Test func catchPatternsMatchTheKind() {
        func kind(of error: any Error) -> String {
            do { throw error } catch ToltError.unknownClick { return "click" } catch ToltError.unknownCode {
                return "code"
            } catch { return "other" }
        }
        #expect(kind(of: Self.refused) == "code")
        #expect(
            kind(of: ToltError.refusal(code: "unknown_click", message: "", httpStatus: 404, retryAfter: nil)) == "click"
        )
        #expect(kind(of: CancellationError()) == "other")
        #expect(kind(of: ToltError.notConfigured) == "other")
    }

    @Test func detailsAndDescription() {
        #expect(Self.refused.code == "unknown_code")
        #expect(Self.refused.httpStatus == 404)
        #expect(
            Self.refused.description
                == "ToltError: code is unknown, inactive, or its partner is inactive (unknown_code, HTTP 404)")
        let limited = ToltError.refusal(code: "rate_limited", message: "slow", httpStatus: 429, retryAfter: 12.5)
        #expect(limited.description == "ToltError: slow (rate_limited, HTTP 429); retry after 13 s")
        let network = ToltError.network(URLError(.cannotConnectToHost))
        #expect(network.urlErrorCode == .cannotConnectToHost)
        #expect(network.code == nil && network.httpStatus == nil)
        #expect(ToltError.notConfigured.description.contains("Tolt.configure(publicId:)"))
        #expect(Self.refused.localizedDescription == "code is unknown, inactive, or its partner is inactive")
    }

    /// A description (what `print(error)`, a logger or a crash reporter reads) for any wait, even one the SDK's own
    /// reading of `Retry-After` never gives: it must never trap.
    @Test func theDescriptionOfAnyWait() {
        let cases: [(TimeInterval, String)] = [
            (0, "0"), (0.2, "1"), (86_400, "86400"), (1e300, "1e+300"), (-0.5, "0"), (.infinity, "inf"),
            (.nan, "nan"), (9.3e18, "9.3e+18"),
        ]
        for (wait, shown) in cases {
            let error = ToltError.server(httpStatus: 503, message: "busy", code: nil, retryAfter: wait)
            #expect(error.description == "ToltError: busy (HTTP 503); retry after \(shown) s", "\(wait)")
        }
    }
}
