/// HTML escaping of values rendered into pages.
public enum HTMLEscaping {
    /// `text` with `& < > " '` replaced by entities, safe inside element content and quoted attributes.
    ///
    ///     HTMLEscaping.escape("<b>\"x\"</b>")  // "&lt;b&gt;&quot;x&quot;&lt;/b&gt;"
    public static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }
}

extension HTMLEscaping {
    /// Writes `bytes` HTML-escaped into `writer`, with no allocation.
    ///
    /// `@inlinable` so that callers in other modules get it specialized for their sequence type: unspecialized,
    /// every byte went through a protocol witness and rendering a page cost several times more. Contiguous
    /// bytes (a native `String`'s UTF-8, arrays, buffers) take ``write(contiguous:into:)``.
    @inlinable
    public static func write<S: Sequence>(_ bytes: S, into writer: inout ByteWriter) where S.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            write(contiguous: UnsafeRawBufferPointer(buffer), into: &writer)
        }
        if done != nil { return }
        for byte in bytes {
            if writer.overflowed { return }
            switch byte {
            case 0x26: writeEntity("&amp;", into: &writer)
            case 0x3C: writeEntity("&lt;", into: &writer)
            case 0x3E: writeEntity("&gt;", into: &writer)
            case 0x22: writeEntity("&quot;", into: &writer)
            case 0x27: writeEntity("&#39;", into: &writer)
            default: writer.write(byte: byte)
            }
        }
    }

    /// Writes `bytes` HTML-escaped into `writer`: the runs between bytes that need an entity are copied whole.
    /// Stops at the first write that does not fit, so the buffer holds a prefix of the escaped text.
    @inlinable
    public static func write(contiguous bytes: UnsafeRawBufferPointer, into writer: inout ByteWriter) {
        var start = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            // Every byte that needs an entity is below 0x3F: one comparison passes the rest.
            guard byte < 0x3F else { continue }
            let entity: StaticString
            switch byte {
            case 0x26: entity = "&amp;"
            case 0x3C: entity = "&lt;"
            case 0x3E: entity = "&gt;"
            case 0x22: entity = "&quot;"
            case 0x27: entity = "&#39;"
            default: continue
            }
            writer.write(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            if writer.overflowed { return }
            writeEntity(entity, into: &writer)
            if writer.overflowed { return }
            start = index + 1
        }
        writer.write(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    @inlinable @inline(__always)
    static func writeEntity(_ entity: StaticString, into writer: inout ByteWriter) {
        writer.write(UnsafeRawBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
    }

    /// The most bytes escaping can turn one byte into.
    public static let maximumExpansion = 6
}
