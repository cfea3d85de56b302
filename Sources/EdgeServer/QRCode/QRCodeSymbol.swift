internal import CQRencode

/// A QR code's modules as libqrencode drew them, for one URL: read while the symbol is alive, inside
/// ``QRCodeSymbol/encode(_:_:)``.
struct QRCodeSymbol {
    /// Modules per side, without the quiet zone (21 for version 1, 4 more per version).
    let width: Int
    private let modules: UnsafePointer<UInt8>

    /// Whether the module at column `x`, row `y` is dark (libqrencode: bit 0 of its byte).
    @inline(__always)
    func isDark(x: Int, y: Int) -> Bool {
        modules[y * width + x] & 1 == 1
    }

    /// Encodes `text` (UTF-8, no NUL) with error correction M, in 8-bit mode where it is not alphanumeric, and the
    /// smallest version it fits, then calls `body` with the symbol; `nil` when it fits no version (more than
    /// 2,331 bytes) or libqrencode could not allocate.
    ///
    /// Called on a cache miss only (``QRCodeCache``), never per request: libqrencode allocates and tries all
    /// eight masks, about 150-600 us for a link's URL.
    static func encode<Result>(_ text: UnsafeRawBufferPointer, _ body: (QRCodeSymbol) -> Result) -> Result? {
        withUnsafeTemporaryAllocation(byteCount: text.count + 1, alignment: 1) { buffer in
            buffer.copyMemory(from: text)
            buffer[text.count] = 0
            guard let code = tolt_qrencode_url(buffer.baseAddress!.assumingMemoryBound(to: CChar.self)) else {
                return nil
            }
            defer { QRcode_free(code) }
            let symbol = QRCodeSymbol(width: Int(code.pointee.width), modules: UnsafePointer(code.pointee.data))
            return body(symbol)
        }
    }
}
