import EdgeServer
import Foundation
import TestSupport
import Testing

/// Every preview fetcher the corpus and the reference lists know gets the card, over a real socket, whether it
/// sends `HEAD` first and then `GET` (Slack, Discord and many fediverse servers probe the type and size first),
/// or goes straight to `GET`; and on a code whose person's answer is a redirect, so a fetcher that follows
/// redirects is never handed one to follow (it would unfurl the app's deep link or the store, not the card).
@Suite struct LinkPreviewFetcherTests {
    /// Distinct User-Agents labelled `preview` in `corpus/ua-dev.tsv`, `corpus/preview-fetchers.tsv` and
    /// `corpus/reference-agents.tsv`.
    static func previewAgents() throws -> [String] {
        var agents: [String] = []
        var seen: Set<String> = []
        func add(_ agent: Substring) {
            let agent = String(agent)
            if !agent.isEmpty, seen.insert(agent).inserted { agents.append(agent) }
        }
        for (file, labelColumn, agentColumn) in [
            ("corpus/ua-dev.tsv", 0, 3), ("corpus/preview-fetchers.tsv", nil, 1), ("corpus/reference-agents.tsv", 0, 3),
        ] as [(String, Int?, Int)] {
            let text = try String(contentsOfFile: try TestFiles.fixture(file), encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count > agentColumn else { continue }
                if let labelColumn, fields[labelColumn] != "preview" { continue }
                add(fields[agentColumn])
            }
        }
        return agents
    }

    @Test func everyPreviewFetcherGetsTheCardWithHeadFirstOrNot() throws {
        let agents = try Self.previewAgents()
        #expect(agents.count > 150)
        let server = try TestServer { $0.publicURL = try? PublicURL("https://links.example.com") }
        defer { server.shutdown() }
        let client = server.client()
        // SAM20's person gets a 302 to the app's deep link; LEE's gets the code page.
        for code in ["SAM20", "LEE"] {
            let reference = try client.request("GET", "/a/pk_acme/\(code)", headers: [("User-Agent", Agents.slack)])
            #expect(reference.status == 200)
            #expect(reference.text.contains(#"<meta property="og:url""#))
            for (index, agent) in agents.enumerated() {
                let headers = [("User-Agent", agent)]
                // Half the fetchers probe with HEAD first, as many do; all of them then GET.
                if index % 2 == 0 || code == "LEE" {
                    let head = try client.request("HEAD", "/a/pk_acme/\(code)", headers: headers)
                    #expect(head.status == 200, "HEAD \(code) as \(agent)")
                    #expect(head.header("location") == nil, "HEAD \(code) as \(agent)")
                    #expect(head.header("content-type") == reference.header("content-type"), "HEAD \(code) as \(agent)")
                    #expect(head.header("content-length") == String(reference.body.count), "HEAD \(code) as \(agent)")
                    #expect(head.body.isEmpty, "HEAD \(code) as \(agent)")
                }
                let get = try client.request("GET", "/a/pk_acme/\(code)", headers: headers)
                #expect(get.status == 200, "GET \(code) as \(agent)")
                #expect(get.header("location") == nil, "GET \(code) as \(agent)")
                #expect(get.body == reference.body, "GET \(code) as \(agent): not the preview page")
            }
        }
        let (clicks, sentinel) = try server.clicksThroughSentinel()
        #expect(clicks.map(\.id) == [sentinel], "no preview fetch recorded a click")
    }
}
