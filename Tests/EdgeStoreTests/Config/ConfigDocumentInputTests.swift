import EdgeStore
import LinkCore
import TestSupport
import Testing

/// What `ConfigDocument(json:)` takes of a file as people save it, and what its errors quote of it.
@Suite struct ConfigDocumentInputTests {
    static let minimal = #"{"organizations":[{"name":"Acme","public_key":"pk_acme","programs":[]}]}"#

    static func message(_ json: String) -> String? {
        do {
            _ = try ConfigDocument(json: Array(json.utf8))
            return nil
        } catch let error as StoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// Windows Notepad saves UTF-8 with a byte-order mark first: one is skipped; anywhere else it is no JSON.
    @Test func oneLeadingByteOrderMarkIsSkipped() throws {
        let document = try ConfigDocument(json: [0xEF, 0xBB, 0xBF] + Array(Self.minimal.utf8))
        #expect(document == (try ConfigDocument(json: Array(Self.minimal.utf8))))
        #expect(Self.message("\u{FEFF}\u{FEFF}" + Self.minimal)?.hasPrefix("not valid JSON") == true)
        #expect(Self.message(" \u{FEFF}" + Self.minimal)?.hasPrefix("not valid JSON") == true)
        #expect(Self.message("\u{FEFF}")?.hasPrefix("not valid JSON") == true, "a mark alone is an empty file")
    }

    /// A member name is quoted as errors quote input: its first 100 scalars and "…", control characters escaped.
    @Test func aMemberNameIsQuotedCutAndEscaped() {
        let long = String(repeating: "n", count: 1_000_000)
        #expect(
            Self.message(#"{"organizations":[],"\#(long)":1}"#)
                == String(repeating: "n", count: 100) + "…: is not a known field")
        #expect(
            Self.message(#"{"organizations":[{"programs":[{"partners":[{"\u001b[2Kok\r\n":1}]}]}]}"#)
                == #"organizations[0].programs[0].partners[0].\u001B[2Kok\u000D\u000A: is not a known field"#)
        #expect(
            Self.message(#"{"organizations":[{"name":"a","na\u006De":"b"}]}"#)
                == "organizations[0].name: appears twice")
        #expect(
            Self.message(#"{"organizations":[{"status\u0007":1}]}"#)
                == #"organizations[0].status\u0007: is not a known field"#)
    }
}
