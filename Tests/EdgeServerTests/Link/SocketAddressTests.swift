import Foundation
import Testing

@testable import EdgeServer

/// The client address recorded with a click is written by hand for IPv4; it must read as `inet_ntop` writes it.
@Suite struct SocketAddressTests {
    func text(_ storage: sockaddr_storage, room: Int = 64) -> String {
        var storage = storage
        return withUnsafeTemporaryAllocation(byteCount: room, alignment: 8) { output in
            String(decoding: output[..<SocketAddress.text(&storage, into: output)], as: UTF8.self)
        }
    }

    /// A socket address of `family` whose address bytes, at `offset`, are `bytes`.
    func address(_ family: Int32, at offset: Int, _ bytes: [UInt8]) -> sockaddr_storage {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: sa_family_t(family), toByteOffset: 0, as: sa_family_t.self)
            for (index, byte) in bytes.enumerated() { raw[offset + index] = byte }
        }
        return storage
    }

    func ipv4(_ bytes: [UInt8]) -> sockaddr_storage {
        address(AF_INET, at: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, bytes)
    }

    func ipv6(_ bytes: [UInt8]) -> sockaddr_storage {
        address(AF_INET6, at: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!, bytes)
    }

    func systemText(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = bytes.withUnsafeBytes { inet_ntop(AF_INET, $0.baseAddress, &buffer, 64) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func ipv4ReadsAsInetNtopWritesIt() {
        var samples: [[UInt8]] = [
            [0, 0, 0, 0], [255, 255, 255, 255], [127, 0, 0, 1], [10, 0, 100, 9], [1, 23, 45, 199],
        ]
        var generator = SystemRandomNumberGenerator()
        samples += (0..<2000).map { _ in (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        for bytes in samples {
            #expect(text(ipv4(bytes)) == systemText(bytes))
        }
    }

    @Test func mappedIPv4ReadsAsIPv4AndIPv6AsInetNtopWritesIt() {
        #expect(text(ipv6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 7, 250])) == "192.168.7.250")
        #expect(text(ipv6([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])) == "2001:db8::1")
        #expect(text(ipv6([UInt8](repeating: 0, count: 15) + [1])) == "::1")
    }

    @Test func tooLittleRoomOrAnUnknownFamilyWritesNothing() {
        #expect(text(ipv4([255, 255, 255, 255]), room: 8) == "")
        var unknown = sockaddr_storage()
        unknown.ss_family = sa_family_t(AF_UNIX)
        #expect(text(unknown) == "")
    }
}
