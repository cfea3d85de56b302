/// HTML escaping of values rendered into pages.
public enum HTMLEscaping {
    /// `text` with `& < > " '` replaced by entities, safe inside element content and quoted attributes.
    ///
    ///     HTMLEscaping.escape("<b>\"x\"</b>")  // "&lt;b&gt;&quot;x&quot;&lt;/b&gt;"
    public static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if let entity = entity(for: byte) {
                out.append(contentsOf: UnsafeRawBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// The entity that stands for `byte`, or `nil` when the byte stands for itself. Every byte with an entity
    /// is below 0x3F, so most bytes are passed with one comparison.
    @inlinable @inline(__always)
    static func entity(for byte: UInt8) -> StaticString? {
        guard byte < 0x3F else { return nil }
        switch byte {
        case 0x26: return "&amp;"
        case 0x3C: return "&lt;"
        case 0x3E: return "&gt;"
        case 0x22: return "&quot;"
        case 0x27: return "&#39;"
        default: return nil
        }
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
            if let entity = entity(for: byte) {
                writeEntity(entity, into: &writer)
            } else {
                writer.write(byte: byte)
            }
        }
    }

    /// Writes `bytes` HTML-escaped into `writer`: the runs between bytes that need an entity are copied whole.
    /// Stops at the first write that does not fit, so the buffer holds a prefix of the escaped text.
    @inlinable
    public static func write(contiguous bytes: UnsafeRawBufferPointer, into writer: inout ByteWriter) {
        var start = 0
        for index in 0..<bytes.count {
            guard let entity = entity(for: bytes[index]) else { continue }
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
