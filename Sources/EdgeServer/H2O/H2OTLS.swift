internal import CH2O

/// The certificate every loop's new TLS connections take, replaceable while they run (`SIGHUP`).
///
/// `@unchecked Sendable`: the C holder guards its context with a mutex; loops take a reference per connection, and
/// a reload swaps the context whole, so a connection keeps the certificate it started with.
final class H2OTLS: @unchecked Sendable {
    let holder: OpaquePointer
    let files: TLSFiles

    /// Loads the certificate and key; a file that cannot be read, or a key that does not match, is a
    /// ``ConfigurationError`` naming it.
    init(_ files: TLSFiles) throws {
        self.files = files
        var error = [CChar](repeating: 0, count: 512)
        guard let holder = tolt_h2o_tls_create(files.certificate, files.key, &error, error.count) else {
            throw ConfigurationError("TLS: \(Self.text(error))")
        }
        self.holder = holder
    }

    deinit { tolt_h2o_tls_destroy(holder) }

    /// Reads the files again; connections that arrive from now on get the new certificate. On an error the current
    /// certificate stays.
    func reload() throws {
        var error = [CChar](repeating: 0, count: 512)
        guard tolt_h2o_tls_reload(holder, files.certificate, files.key, &error, error.count) == 0 else {
            throw ConfigurationError("TLS: \(Self.text(error))")
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
