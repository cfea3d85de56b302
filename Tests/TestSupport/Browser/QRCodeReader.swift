import Foundation

/// Reads QR codes back from a screenshot with `zbarimg` (Debian `zbar-tools`, installed by
/// `scripts/install-deps.sh test`), as a phone's camera would: from the pixels, not from the page's markup.
package enum QRCodeReader {
    package static let zbarimgPath = "/usr/bin/zbarimg"

    /// The text of every QR code zbar finds in the PNG, in the order it reports them; empty when it finds none.
    /// Throws when `zbarimg` is missing or fails for another reason than finding no code.
    package static func decode(png: Data) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: zbarimgPath) else {
            throw TestError("\(zbarimgPath) is missing: run scripts/install-deps.sh test (make test installs it)")
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let image = directory.path + "/screenshot.png"
        let output = directory.path + "/zbarimg.out"
        let errors = directory.path + "/zbarimg.err"
        try png.write(to: URL(fileURLWithPath: image))
        // --raw: each code's text alone, one per line; -Sdisable -Sqrcode.enable: QR codes only.
        let process = try SpawnedProcess(
            executable: zbarimgPath, arguments: ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", image],
            standardOutput: output, standardError: errors)
        process.waitUntilExit()
        // zbarimg exits 4 when the image holds no code it can read.
        let status = process.terminationStatus
        guard process.terminationReason == .exit, status == 0 || status == 4 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw TestError("zbarimg failed (\(status)): \(message)")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
