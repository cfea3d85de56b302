import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTPS server on 127.0.0.1 for one image, on a port of its own, so that a page loads it from another
/// origin: `openssl s_server -HTTP`, which answers `GET /<file>` with the file's bytes as a whole HTTP response.
/// Its certificate is self-signed (``TestCertificate``): the browser must accept insecure certificates.
///
/// Call ``stop()`` in a `defer`.
final class ImageServer {
    private let directory: TemporaryDirectory
    private let process: SpawnedProcess
    let port: Int

    /// Serves the PNG `png` at ``url``.
    init(png: Data) throws {
        directory = try TemporaryDirectory()
        do {
            let certificate = try TestCertificate(in: directory.path, name: "127.0.0.1")
            var response = Data(
                "HTTP/1.0 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n".utf8)
            response.append(png)
            try response.write(to: URL(fileURLWithPath: directory.path + "/icon.png"))
            let output = directory.path + "/s_server.out"
            // s_server -HTTP reads files relative to its working directory; exec keeps the shell's process id.
            process = try SpawnedProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c",
                    #"cd "$1" && exec /usr/bin/openssl s_server -accept 127.0.0.1:0 -cert "$2" -key "$3" -HTTP"#, "sh",
                    directory.path, certificate.certificate, certificate.key,
                ], standardOutput: output, standardError: directory.path + "/s_server.err")
            // It prints `ACCEPT 127.0.0.1:<port>` once it listens.
            var port: Int?
            _ = eventually(within: 10) {
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                    let colon = line.lastIndex(of: ":")
                else { return false }
                port = Int(line[line.index(after: colon)...])
                return true
            }
            guard let port else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw TestError("openssl s_server did not start listening")
            }
            self.port = port
        } catch {
            directory.remove()
            throw error
        }
    }

    var url: String { "https://127.0.0.1:\(port)/icon.png" }

    /// SIGKILL, not SIGTERM: a child spawned from the test process inherits its signal mask, and the in-process
    /// servers block SIGTERM (they `sigwait` for it), so s_server would never see a SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        directory.remove()
    }
}
