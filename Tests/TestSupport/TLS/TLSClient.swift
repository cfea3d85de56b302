internal import COpenSSL
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TLS client over a real socket (OpenSSL), for tests that need to see the handshake: the protocol ALPN
/// chose, the version and cipher, the server's certificate, and a connection kept open across a certificate reload.
/// It speaks raw bytes; ``request(_:_:headers:)`` adds a minimal HTTP/1.1 exchange.
package final class TLSClient {
    /// The TLS versions a test may offer at most (OpenSSL's numbers).
    package enum Version: Int32 {
        case tls11 = 0x0302
        case tls12 = 0x0303
        case tls13 = 0x0304
    }

    private let context: OpaquePointer
    private let ssl: OpaquePointer
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The protocol ALPN chose (`h2`, `http/1.1`), or `nil` when the server chose none.
    package let negotiatedProtocol: String?
    /// The version in use, as OpenSSL names it (`TLSv1.3`).
    package let version: String
    /// The cipher suite in use, as OpenSSL names it.
    package let cipher: String
    /// The SHA-256 of the server certificate's DER bytes.
    package let certificateFingerprint: [UInt8]

    /// Connects to 127.0.0.1:`port` and completes a handshake offering `alpn`, versions up to `maximumVersion`, and
    /// with `ciphers` the TLS 1.2 suites (OpenSSL's list syntax). Throws when the server refuses the handshake. Reads
    /// give up after `timeout` seconds.
    package init(
        port: Int, alpn: [String] = ["h2", "http/1.1"], maximumVersion: Version = .tls13, ciphers: String? = nil,
        timeout: Int = 10
    ) throws {
        // A write to a connection the server closed must fail, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TestError("SSL_CTX_new failed") }
        self.context = context
        let minimum = maximumVersion == .tls11 ? Version.tls11.rawValue : 0
        _ = tolt_ssl_ctx_set_versions(context, minimum, maximumVersion.rawValue)
        // OpenSSL's default security level refuses TLS 1.1 in the client itself; level 0 lets the test offer it.
        if maximumVersion == .tls11 { SSL_CTX_set_security_level(context, 0) }
        if let ciphers, SSL_CTX_set_cipher_list(context, ciphers) != 1 {
            SSL_CTX_free(context)
            throw TestError("the client cannot offer \(ciphers)")
        }
        var wire: [UInt8] = []
        for name in alpn { wire += [UInt8(name.utf8.count)] + Array(name.utf8) }
        _ = SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count))

        let fd: Int32
        do {
            fd = try LoopbackSocket.connect(port: port, receiveTimeout: timeout * 1_000_000, noDelay: true)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        guard let ssl = SSL_new(context) else {
            close(fd)
            SSL_CTX_free(context)
            throw TestError("SSL_new failed: \(Self.lastError())")
        }
        descriptor = fd
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        guard SSL_connect(ssl) == 1 else {
            let reason = Self.lastError()
            SSL_free(ssl)
            SSL_CTX_free(context)
            close(fd)
            throw TestError("TLS handshake refused: \(reason)")
        }
        var selected: UnsafePointer<UInt8>?
        var selectedLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &selectedLength)
        negotiatedProtocol =
            selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(selectedLength)), as: UTF8.self) }
        version = String(cString: SSL_get_version(ssl))
        cipher = String(cString: SSL_CIPHER_get_name(SSL_get_current_cipher(ssl)))
        var fingerprint = [UInt8](repeating: 0, count: 32)
        var fingerprintLength: UInt32 = 32
        if let certificate = SSL_get1_peer_certificate(ssl) {
            X509_digest(certificate, EVP_sha256(), &fingerprint, &fingerprintLength)
            X509_free(certificate)
        }
        certificateFingerprint = fingerprint
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
        close(descriptor)
    }

    /// Writes all of `bytes` in one TLS record when they fit one (16 KiB). Throws once the server has closed the
    /// connection.
    package func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress! + sent, Int32($0.count - sent)) }
            guard count > 0 else { throw TestError("TLS write failed: \(Self.lastError())") }
            sent += Int(count)
        }
    }

    /// What the server sends next: at least one byte, or none once it has closed the connection (a TLS close, the
    /// end of the stream, or a reset). Throws when nothing came within the timeout.
    package func read(atMost count: Int = 65536) throws -> [UInt8] {
        if !buffer.isEmpty {
            defer { buffer = [] }
            return buffer
        }
        var bytes = [UInt8](repeating: 0, count: count)
        errno = 0
        let read = SSL_read(ssl, &bytes, Int32(count))
        if read > 0 { return Array(bytes[..<Int(read)]) }
        let error = SSL_get_error(ssl, read)
        let systemError = errno
        ERR_clear_error()
        // The socket's receive timeout makes read(2) fail with EAGAIN, which OpenSSL takes for "retry".
        if error == SSL_ERROR_WANT_READ
            || (error == SSL_ERROR_SYSCALL && (systemError == EAGAIN || systemError == EWOULDBLOCK))
        {
            throw TestError("no answer within the timeout")
        }
        return []
    }

    /// Sends one HTTP/1.1 request on this connection (kept alive), with `body` (and its `Content-Length`) when there
    /// is one, and reads the response; only responses with a `Content-Length` (or none, for `HEAD`) are read.
    package func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try write(Array((head + "\r\n").utf8) + body)
        var received = buffer
        buffer = []
        var headEnd: Int?
        while true {
            headEnd = Self.find([13, 10, 13, 10], in: received)
            if headEnd != nil { break }
            let more = try read()
            guard !more.isEmpty else { throw TestError("connection closed before a response") }
            received += more
        }
        let rawHead = Array(received[..<headEnd!])
        received.removeFirst(headEnd! + 4)
        var response = try HTTPResponse(head: rawHead)
        let length = method == "HEAD" ? 0 : response.header("content-length").flatMap(Int.init) ?? 0
        while received.count < length {
            let more = try read()
            guard !more.isEmpty else { throw TestError("connection closed within a body") }
            received += more
        }
        response.body = Array(received[..<length])
        buffer = Array(received[length...])
        return response
    }

    private static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "errno \(errno)" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<index + needle.count]) == needle { return index }
        }
        return nil
    }
}
