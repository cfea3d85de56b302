import LinkCore

/// ``SplitMix64`` with what fuzz tests do with it, so that a failure replays exactly from its seed.
package struct SeededGenerator: RandomNumberGenerator {
    private var source: SplitMix64

    package init(seed: UInt64) { source = SplitMix64(seed: seed) }

    package mutating func next() -> UInt64 { source.next() }

    /// `bytes` changed by one to four random edits: a byte replaced, inserted or deleted, a run repeated, or
    /// the tail cut off, the mutations that find parser bugs.
    package mutating func mutate(_ bytes: [UInt8], alphabet: [UInt8] = []) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let position = out.isEmpty ? 0 : Int.random(in: 0..<out.count, using: &self)
            let byte =
                alphabet.isEmpty ? UInt8.random(in: 0...255, using: &self) : alphabet.randomElement(using: &self)!
            switch Int.random(in: 0..<5, using: &self) {
            case 0 where !out.isEmpty: out[position] = byte
            case 1: out.insert(byte, at: position)
            case 2 where !out.isEmpty: out.remove(at: position)
            case 3 where !out.isEmpty:
                let end = min(out.count, position + Int.random(in: 1...16, using: &self))
                out.insert(contentsOf: out[position..<end], at: position)
            default: out.removeLast(out.isEmpty ? 0 : Int.random(in: 0...min(8, out.count), using: &self))
            }
        }
        return out
    }

    /// How many cases a fuzz test runs: `base`, scaled by `FUZZ_SCALE` in the environment (e.g. `0.01` for a quick
    /// local run, `10` for a long one).
    package static func cases(_ base: Int) -> Int {
        guard let text = getenv("FUZZ_SCALE").map({ String(cString: $0) }), let scale = Double(text) else {
            return base
        }
        return max(1, Int(Double(base) * scale))
    }
}

#if canImport(Glibc)
    import Glibc
#endif
