/// Picks the language of a page from a request's `Accept-Language` header (RFC 9110 §12.5.4), on the link path:
/// it reads bytes, allocates nothing and reads at most ``maximumLength`` bytes.
///
/// - Each range counts for its primary subtag: `de-CH` asks for German, `pt-BR` for Portuguese.
/// - The highest q-value wins (`q` defaults to 1); between equal ones, the range named first. A language named
///   more than once takes its highest q.
/// - `q=0` means "not this one": `en;q=0, de;q=0.1` is German.
/// - `*` stands for every language the header does not name, at its q-value; English first, then the order of
///   ``PageLanguage``.
/// - Nothing acceptable, no header, or a header that does not parse (a bad range, a q-value like `abc` or `1.5`,
///   a parameter other than `q`, stray bytes): English.
///
///     AcceptLanguage.preferred("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")  // .french
enum AcceptLanguage {
    /// The most bytes of a header read. A longer header is read up to its last complete range within them: the
    /// range cut by the limit is ignored, the ones before it count.
    static let maximumLength = 1024

    static func preferred(_ header: UnsafeRawBufferPointer) -> PageLanguage {
        var count = header.count
        if count > maximumLength {
            // Keep only the ranges that end before the limit: cut at the last comma within it.
            var cut = maximumLength
            while cut > 0 && header[cut] != 0x2C { cut -= 1 }
            count = cut
        }
        guard count > 0 else { return .english }
        var choice = Choice()
        var index = 0
        var position = 0
        while index <= count {
            guard let item = parseItem(header, from: &index, end: count) else { return .english }
            if let item {
                choice.add(item, position: position)
                position += 1
            }
            // `index` is at a comma or at the end.
            index += 1
        }
        return choice.best
    }

    /// A language range and its q-value in thousandths; `language` is `nil` for `*` and for a language the pages
    /// are not written in.
    private struct Item {
        var isStar: Bool
        var language: PageLanguage?
        var quality: Int
    }

    /// The q-value and first position of each language, and of `*`, kept in scalars so nothing is allocated.
    private struct Choice {
        /// q-values in thousandths, one per ``PageLanguage``, -1 while the header has not named it.
        private var qualities: (Int, Int, Int, Int, Int) = (-1, -1, -1, -1, -1)
        private var positions: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
        private var starQuality = -1
        private var starPosition = 0

        mutating func add(_ item: Item, position: Int) {
            if item.isStar {
                if item.quality > starQuality {
                    if starQuality < 0 { starPosition = position }
                    starQuality = item.quality
                }
                return
            }
            guard let language = item.language else { return }
            let current = quality(of: language)
            if current < 0 { setPosition(language, position) }
            if item.quality > current { setQuality(language, item.quality) }
        }

        var best: PageLanguage {
            var best = PageLanguage.english
            var bestQuality = 0
            var bestPosition = Int.max
            for language in PageLanguage.allCases {
                var quality = quality(of: language)
                var position = positions(of: language)
                if quality < 0 {
                    quality = starQuality
                    position = starPosition
                }
                if quality > bestQuality || (quality == bestQuality && quality > 0 && position < bestPosition) {
                    best = language
                    bestQuality = quality
                    bestPosition = position
                }
            }
            return bestQuality > 0 ? best : .english
        }

        private func quality(of language: PageLanguage) -> Int {
            switch language {
            case .english: qualities.0
            case .german: qualities.1
            case .french: qualities.2
            case .spanish: qualities.3
            case .portuguese: qualities.4
            }
        }

        private func positions(of language: PageLanguage) -> Int {
            switch language {
            case .english: positions.0
            case .german: positions.1
            case .french: positions.2
            case .spanish: positions.3
            case .portuguese: positions.4
            }
        }

        private mutating func setQuality(_ language: PageLanguage, _ value: Int) {
            switch language {
            case .english: qualities.0 = value
            case .german: qualities.1 = value
            case .french: qualities.2 = value
            case .spanish: qualities.3 = value
            case .portuguese: qualities.4 = value
            }
        }

        private mutating func setPosition(_ language: PageLanguage, _ value: Int) {
            switch language {
            case .english: positions.0 = value
            case .german: positions.1 = value
            case .french: positions.2 = value
            case .spanish: positions.3 = value
            case .portuguese: positions.4 = value
            }
        }
    }

    /// Parses one list element from `index` up to the next comma or `end`, leaving `index` there. Returns
    /// `.some(nil)` for an empty element (lists may hold them), `nil` when the element does not parse.
    private static func parseItem(_ bytes: UnsafeRawBufferPointer, from index: inout Int, end: Int) -> Item?? {
        skipSpace(bytes, &index, end)
        if index == end || bytes[index] == 0x2C { return .some(nil) }
        var item = Item(isStar: false, language: nil, quality: 1000)
        if bytes[index] == 0x2A {
            item.isStar = true
            index += 1
        } else {
            // 1*8ALPHA *("-" 1*8alphanum)
            let start = index
            while index < end && isAlpha(bytes[index]) { index += 1 }
            let primaryLength = index - start
            guard (1...8).contains(primaryLength) else { return nil }
            if primaryLength == 2 { item.language = PageLanguage.primary(bytes[start], bytes[start + 1]) }
            while index < end && bytes[index] == 0x2D {
                index += 1
                let subtagStart = index
                while index < end && (isAlpha(bytes[index]) || isDigit(bytes[index])) { index += 1 }
                guard (1...8).contains(index - subtagStart) else { return nil }
            }
        }
        skipSpace(bytes, &index, end)
        while index < end && bytes[index] == 0x3B {
            index += 1
            skipSpace(bytes, &index, end)
            guard index + 1 < end, bytes[index] | 0x20 == 0x71, bytes[index + 1] == 0x3D else { return nil }
            index += 2
            guard let quality = parseQuality(bytes, &index, end) else { return nil }
            item.quality = quality
            skipSpace(bytes, &index, end)
        }
        guard index == end || bytes[index] == 0x2C else { return nil }
        return .some(item)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    private static func parseQuality(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, _ end: Int) -> Int? {
        guard index < end, bytes[index] == 0x30 || bytes[index] == 0x31 else { return nil }
        let whole = Int(bytes[index] - 0x30)
        index += 1
        var fraction = 0
        if index < end && bytes[index] == 0x2E {
            index += 1
            var digits = 0
            while index < end && isDigit(bytes[index]) {
                guard digits < 3 else { return nil }
                fraction = fraction * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            for _ in digits..<3 { fraction *= 10 }
        }
        let quality = whole * 1000 + fraction
        return quality <= 1000 ? quality : nil
    }

    @inline(__always)
    private static func skipSpace(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, _ end: Int) {
        while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    }

    @inline(__always)
    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
