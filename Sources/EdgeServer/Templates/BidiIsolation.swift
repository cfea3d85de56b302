import LinkCore

/// Unicode's isolates around a value in text that cannot hold markup: a page's `<title>`, an attribute such as
/// `og:title` or `og:description`. A right-to-left name there (`متجر`) next to the page's left-to-right words and
/// punctuation is reordered with them by the bidirectional algorithm (in a tab's title, in a chat app's card), as
/// it was in the body before `<bdi>`; between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE it is laid
/// out on its own, the W3C's advice where markup is not available.
///
/// Only a value that holds a right-to-left letter gets them: renderers that do not know the isolates draw them as
/// boxes (the Windows taskbar's list of a browser's tabs: mozilla-services/screenshots#4863, projectfluent/fluent.js#173),
/// and a value without one cannot be reordered by the page's left-to-right words. So a Latin page is what it was, byte
/// for byte, and the hot path pays one scan of a few short values.
enum BidiIsolation {
    /// Puts the isolates around the value written into `writer` from `start` on, when it holds a right-to-left letter:
    /// the value is moved along by the 3 bytes of U+2068, and U+2069 follows it. The template reserved the 6 bytes.
    @inline(__always)
    static func isolate(_ writer: inout ByteWriter, from start: Int) {
        guard !writer.overflowed,
            holdsRightToLeft(UnsafeRawBufferPointer(start: writer.base + start, count: writer.count - start))
        else { return }
        guard writer.capacity - writer.count >= 6 else { return writer.overflowed = true }
        let value = writer.base + start
        (value + 3).copyMemory(from: value, byteCount: writer.count - start)
        // U+2068 in UTF-8, then U+2069.
        value.storeBytes(of: 0xE2, toByteOffset: 0, as: UInt8.self)
        value.storeBytes(of: 0x81, toByteOffset: 1, as: UInt8.self)
        value.storeBytes(of: 0xA8, toByteOffset: 2, as: UInt8.self)
        writer.count += 3
        writer.write(byte: 0xE2)
        writer.write(byte: 0x81)
        writer.write(byte: 0xA9)
    }

    /// Whether `bytes` hold a character of a right-to-left script, by its block: Hebrew, Arabic, Syriac, Thaana, N'Ko,
    /// Samaritan, Mandaic (U+0590–U+08FF), their presentation forms (U+FB1D–U+FDFF, U+FE70–U+FEFE), and the
    /// right-to-left blocks beyond the first plane (U+10800–U+10FFF, U+1E800–U+1EFFF).
    static func holdsRightToLeft(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            guard bytes[index] >= 0x80, let (scalar, length) = UTF8Scalar.decode(bytes, at: index) else {
                index += 1
                continue
            }
            switch scalar {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x1_0800...0x1_0FFF, 0x1_E800...0x1_EFFF:
                return true
            default: index += length
            }
        }
        return false
    }
}
