#if canImport(Glibc)
    import Glibc
#endif

/// A self-signed certificate and its key, made with the `openssl` command for one test.
package struct TestCertificate {
    package let certificate: String
    package let key: String

    /// Writes `<name>.crt` and `<name>.key` (an ECDSA P-256 key, the certificate for `CN=<name>`) into `directory`;
    /// an existing pair of that name is replaced.
    package init(in directory: String, name: String) throws {
        certificate = "\(directory)/\(name).crt"
        key = "\(directory)/\(name).key"
        let process = try SpawnedProcess(
            executable: "/usr/bin/openssl",
            arguments: [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                key + ".new", "-out", certificate + ".new", "-days", "2", "-subj", "/CN=\(name)",
            ])
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw TestError("openssl req failed with \(process.terminationStatus) (is Debian's openssl installed?)")
        }
        // Replaced whole, so a server reloading them never reads half a file.
        guard rename(key + ".new", key) == 0, rename(certificate + ".new", certificate) == 0 else {
            throw TestError("cannot move the new certificate into place: errno \(errno)")
        }
    }
}
