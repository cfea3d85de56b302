/// Appends bytes into a fixed buffer that someone else owns (for the server, the request's memory pool).
///
/// Writing past the end sets ``overflowed`` instead of trapping, so a caller sizes the buffer from the
/// lengths it knows and checks once at the end.
public struct ByteWriter {
    public let base: UnsafeMutableRawPointer
    public let capacity: Int
    /// How many bytes have been written.
    public var count = 0
    /// Whether a write did not fit; the buffer then holds a prefix of what was asked.
    public var overflowed = false

    @inlinable
    public init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    // @inlinable: pages are written byte by byte from other modules; a call per byte would dominate.
    @inlinable @inline(__always)
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= capacity - count else {
            overflowed = true
            return
        }
        if let source = bytes.baseAddress, bytes.count > 0 {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    @inlinable @inline(__always)
    public mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    @inlinable @inline(__always)
    public mutating func write(byte: UInt8) {
        guard count < capacity else {
            overflowed = true
            return
        }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }
}
