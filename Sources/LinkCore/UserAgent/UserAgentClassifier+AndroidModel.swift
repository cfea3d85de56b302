extension UserAgentClassifier {
    /// Where the device model sits in an Android comment: the field after the
    /// one naming Android (and after a locale field, in older strings), up to
    /// " Build/", `;` or `)`. `(Linux; Android 13; Spider 8 Build/TP1A)` and
    /// `(Linux; U; Android 4.1.1; en-us; M bot 60)` give "Spider 8" and
    /// "M bot 60". Nil when the comment names no model.
    static func androidModel(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        let count = bytes.count
        @inline(__always) func lower(_ index: Int) -> UInt8 { UserAgentAutomaton.fold(bytes[index]) }
        @inline(__always) func matches(_ word: StaticString, at index: Int) -> Bool {
            guard index + word.utf8CodeUnitCount <= count else { return false }
            for offset in 0..<word.utf8CodeUnitCount where lower(index + offset) != word.utf8Start[offset] {
                return false
            }
            return true
        }
        @inline(__always) func skipSpaces(_ index: Int) -> Int {
            var index = index
            while index < count, bytes[index] == 0x20 { index += 1 }
            return index
        }
        // "android" opening a comment field: after "(" or ";" and spaces.
        var field = -1
        var index = 0
        while index < count {
            if lower(index) == 0x61, matches("android", at: index) {
                var before = index - 1
                while before >= 0, bytes[before] == 0x20 { before -= 1 }
                if before >= 0, bytes[before] == 0x28 || bytes[before] == 0x3B {
                    field = index
                    break
                }
            }
            index += 1
        }
        guard field >= 0 else { return nil }
        // The rest of the Android field ("Android 13"), then the next field.
        var next = field + 7
        while next < count, bytes[next] != 0x3B {
            if bytes[next] == 0x29 || bytes[next] == 0x28 { return nil }
            next += 1
        }
        guard next < count else { return nil }
        var start = skipSpaces(next + 1)
        // A locale field stands before the model in older strings ("en-us;", "zh_CN;", "de;", "zh-Hans-CN;",
        // "es-419;"): a language of 2 or 3 letters, then subtags of 4 letters (script), 2 letters or 3 digits
        // (region), up to the `;`. A model ("SM-G991B", "LG-K420") has other subtags.
        func isLetter(_ index: Int) -> Bool { lower(index) >= 0x61 && lower(index) <= 0x7A }
        func isDigit(_ index: Int) -> Bool { bytes[index] >= 0x30 && bytes[index] <= 0x39 }
        func localeEnd(from first: Int) -> Int? {
            var index = first
            while index < count, isLetter(index) { index += 1 }
            guard (2...3).contains(index - first) else { return nil }
            while index < count, bytes[index] == 0x2D || bytes[index] == 0x5F {
                let subtag = index + 1
                var end = subtag
                while end < count, isLetter(end) || isDigit(end) { end += 1 }
                let letters = (subtag..<end).allSatisfy(isLetter)
                let digits = (subtag..<end).allSatisfy(isDigit)
                guard (letters && (end - subtag == 2 || end - subtag == 4)) || (digits && end - subtag == 3) else {
                    return nil
                }
                index = end
            }
            index = skipSpaces(index)
            return index < count && bytes[index] == 0x3B ? index : nil
        }
        if let end = localeEnd(from: start) { start = skipSpaces(end + 1) }
        var end = start
        while end < count, bytes[end] != 0x3B, bytes[end] != 0x29, bytes[end] != 0x28, !matches(" build/", at: end) {
            end += 1
        }
        guard end < count, end > start else { return nil }
        return start..<end
    }

    /// Whether a model field holds a product token, a name then "/" and a version ("AhrefsBot/7.0"): that
    /// is software naming itself, not a phone's name, so its crawler words are not set aside. A model
    /// may hold a slash, but not a version after it ("SM-J700F/DS").
    static func holdsProductToken(_ bytes: UnsafeRawBufferPointer, _ model: Range<Int>) -> Bool {
        var index = model.lowerBound
        while index + 1 < model.upperBound {
            if bytes[index] == 0x2F, bytes[index + 1] >= 0x30, bytes[index + 1] <= 0x39 { return true }
            index += 1
        }
        return false
    }
}
