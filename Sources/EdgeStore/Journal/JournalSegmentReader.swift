#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole frames from a segment file, from a byte offset on.
struct JournalSegmentReader {
    /// What a read found after the frames it returned.
    enum End: Equatable {
        /// More frames may still be appended here.
        case open
        /// The writer sealed the segment: nothing will follow.
        case sealed
        /// A frame that is not whole or not valid: the end of the data when no writer is left.
        case torn
    }

    let path: String

    /// Reads frames from `offset`, up to `maximumFrames`, calling `frame` with each payload and the offset just
    /// past it. Returns why it stopped.
    func read(
        from offset: Int64, maximumFrames: Int, _ frame: (UnsafeRawBufferPointer, Int64) throws -> Void
    ) throws -> End {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError.io("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var position = offset
        var frames = 0
        while frames < maximumFrames {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            guard count >= 0 else { throw StoreError.io("cannot read \(path): \(String(cString: strerror(errno)))") }
            if count < JournalFrame.headerSize { return .torn }
            var cursor = 0
            let end: End? = try buffer.withUnsafeBytes { bytes in
                while frames < maximumFrames, cursor + JournalFrame.headerSize <= count {
                    let header = bytes.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)
                    let length = Int(UInt32(truncatingIfNeeded: header))
                    let check = UInt32(truncatingIfNeeded: header >> 32)
                    if header == 0 { return .open }
                    if UInt32(truncatingIfNeeded: header) == JournalFrame.sealMarker { return .sealed }
                    guard length >= JournalRecord.fixedSize, length <= JournalRecord.maximumSize else {
                        return .torn
                    }
                    let frameLength = JournalFrame.size(payloadLength: length)
                    // A frame cut by the buffer's end is read again from its start on the next pass.
                    guard cursor + frameLength <= count else { return nil }
                    let payload = UnsafeRawBufferPointer(rebasing: bytes[cursor + 8..<cursor + 8 + length])
                    guard JournalFrame.checksum(payload) == check else { return .torn }
                    cursor += frameLength
                    frames += 1
                    try frame(payload, position + Int64(cursor))
                }
                return nil
            }
            if let end { return end }
            if cursor == 0 { return .torn }
            position += Int64(cursor)
        }
        return .open
    }
}
