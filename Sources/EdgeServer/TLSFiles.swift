/// The PEM files `tolt-edge serve --tls-cert FILE --tls-key FILE` reads, at start and again on `SIGHUP`.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain: the server's certificate first, then its intermediates.
    public var certificate: String
    /// The private key of the certificate.
    public var key: String

    /// The PEM files at `certificate` and `key`; they are read when the server starts and on each reload.
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
