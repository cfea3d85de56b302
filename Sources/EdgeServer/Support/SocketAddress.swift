#if canImport(Glibc)
    import Glibc
#endif

/// Reading `sockaddr_storage` values.
enum SocketAddress {
    static func port(_ storage: sockaddr_storage) -> UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Writes the address as text (no port) into `output`; returns its length, 0 when unknown or when it does not
    /// fit (`output` needs 46 bytes for any address).
    static func text(_ storage: UnsafePointer<sockaddr_storage>, into output: UnsafeMutableRawBufferPointer) -> Int {
        let family = Int32(storage.pointee.ss_family)
        let raw = UnsafeRawPointer(storage)
        if family == AF_INET {
            return dottedQuad(raw + MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, into: output)
        }
        guard family == AF_INET6 else { return 0 }
        let address = raw + MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
        let bytes = address.assumingMemoryBound(to: UInt8.self)
        // An IPv4 client on a dual-stack socket reads as ::ffff:a.b.c.d; keep it as a.b.c.d.
        if (0..<10).allSatisfy({ bytes[$0] == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return dottedQuad(address + 12, into: output)
        }
        let buffer = output.baseAddress!.assumingMemoryBound(to: CChar.self)
        guard inet_ntop(AF_INET6, address, buffer, socklen_t(output.count)) != nil else { return 0 }
        return strlen(buffer)
    }

    /// Writes the four bytes at `address` as `a.b.c.d`; returns the length, 0 when `output` is too small. Done by
    /// hand: glibc's `inet_ntop` formats IPv4 with `sprintf`, which every click paid for.
    static func dottedQuad(_ address: UnsafeRawPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        guard output.count >= 16 else { return 0 }
        var length = 0
        for index in 0..<4 {
            if index > 0 {
                output[length] = UInt8(ascii: ".")
                length += 1
            }
            let byte = address.load(fromByteOffset: index, as: UInt8.self)
            if byte >= 100 {
                output[length] = UInt8(ascii: "0") + byte / 100
                length += 1
            }
            if byte >= 10 {
                output[length] = UInt8(ascii: "0") + byte / 10 % 10
                length += 1
            }
            output[length] = UInt8(ascii: "0") + byte % 10
            length += 1
        }
        return length
    }
}
