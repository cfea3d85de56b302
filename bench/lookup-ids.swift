// A RevenueCat event's user ids de-duplicated by bytes, as `RevenueCatEvent.customerLookupIDs` did before
// REVIEW14 (each id compared with every id kept) and does now (a set of the ids' bytes), side by side on the same
// renewals of 10, 100 and 1,000 ids (the most `aliases` read). Not part of the package:
//
//   swiftc -O bench/lookup-ids.swift -o /tmp/lookup-ids && /tmp/lookup-ids
import Foundation

func quadratic(_ appUserID: String?, _ original: String?, _ aliases: [String]) -> [String] {
    var ids: [String] = []
    for id in [appUserID, original].compactMap({ $0 }) + aliases
    where !ids.contains(where: { $0.utf8.elementsEqual(id.utf8) }) {
        ids.append(id)
    }
    return ids
}

func bySet(_ appUserID: String?, _ original: String?, _ aliases: [String]) -> [String] {
    var seen: Set<[UInt8]> = []
    return ([appUserID, original].compactMap { $0 } + aliases).filter { seen.insert(Array($0.utf8)).inserted }
}

for count in [10, 100, 1000] {
    let aliases = ["u_sam"] + (0..<(count - 1)).map { "$RCAnonymousID:0f1e2d3c4b5a69788796a5b4c3d2e1f0\($0)" }
    precondition(quadratic("u_sam", "u_sam", aliases) == bySet("u_sam", "u_sam", aliases))
    for (name, lookUp) in [("before (quadratic)", quadratic), ("after (set)", bySet)] {
        let rounds = count == 1000 ? 20 : 2000
        let start = Date()
        var total = 0
        for _ in 0..<rounds { total += lookUp("u_sam", "u_sam", aliases).count }
        let milliseconds = Date().timeIntervalSince(start) * 1000 / Double(rounds)
        print(String(format: "%5d ids, %@: %.4f ms per call", count, name, milliseconds), total > 0 ? "" : "-")
    }
}
