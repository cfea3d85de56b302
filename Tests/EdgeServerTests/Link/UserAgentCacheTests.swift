import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The per-loop verdict cache must answer exactly what the classifier answers, whatever collides in it.
@Suite struct UserAgentCacheTests {
    func verdict(_ cache: UserAgentCache, _ text: String) -> UserAgentClass {
        Array(text.utf8).withUnsafeBytes { cache.classify($0) }
    }

    @Test func answersLikeTheClassifierForRepeatsCollisionsAndLongStrings() throws {
        let classifier = UserAgentClassifier.standard
        let cache = UserAgentCache(classifier: classifier)
        // More distinct strings than slots, so slots are overwritten, each asked twice in a shuffled order.
        var agents = [Agents.iPhone, Agents.android, Agents.desktop, Agents.slack, Agents.iMessage, Agents.curl, ""]
        agents += (0..<3000).map { "Mozilla/5.0 (Linux; Android \($0 % 15); Device\($0)) Chrome/\($0)" }
        agents += (0..<500).map { "probe-\($0)/1.0" }
        agents.append(String(repeating: "x", count: 300) + " (iPhone; CPU iPhone OS 17_0 like Mac OS X)")
        var order = agents + agents
        order.shuffle()
        for agent in order {
            #expect(verdict(cache, agent) == classifier.classify(agent), "\(agent.prefix(60))")
        }
    }
}
