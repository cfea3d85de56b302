import LinkCore

/// Draws a QR code as a compact inline SVG, for the desktop fallback page.
///
/// One `<path>` of horizontal strokes, one per run of dark modules in a row (a link's URL of 40-110 bytes gives a
/// code of 29-41 modules, 220-470 runs, 1.6-3.1 KB), on a white square with the 4-module quiet zone the standard asks for. The modules are
/// black on white whatever the page's colour scheme, so a phone scans it in dark mode too; `crispEdges` keeps
/// module edges sharp at any scale. The SVG holds no text of its own (the page labels it, in the visitor's
/// language) and only digits and fixed markup, so it goes into the page unescaped.
enum QRCodeSVG {
    /// The quiet zone on each side, in modules.
    static let quietZone = 4
    /// The width and height the page shows it at, in CSS pixels: large enough for a phone's camera at arm's length.
    static let displaySize = 180

    /// Writes the SVG of `symbol` into `writer`; on overflow `writer.overflowed` is set and the bytes are a prefix.
    ///
    /// Each run is a stroke one module wide along the middle of its row (`y + 0.5`), so it covers exactly its
    /// modules; a run is reached from the end of the previous one with a relative move, which keeps most numbers
    /// to one digit.
    static func write(_ symbol: QRCodeSymbol, into writer: inout ByteWriter) {
        let side = symbol.width + 2 * quietZone
        write(#"<svg xmlns="http://www.w3.org/2000/svg" width=""#, into: &writer)
        writeDecimal(displaySize, into: &writer)
        write(#"" height=""#, into: &writer)
        writeDecimal(displaySize, into: &writer)
        write(#"" viewBox="0 0 "#, into: &writer)
        writeDecimal(side, into: &writer)
        writer.write(byte: 0x20)
        writeDecimal(side, into: &writer)
        write(#"" shape-rendering="crispEdges" aria-hidden="true" focusable="false"><rect width=""#, into: &writer)
        writeDecimal(side, into: &writer)
        write(#"" height=""#, into: &writer)
        writeDecimal(side, into: &writer)
        write(##"" fill="#fff"/><path fill="none" stroke="#000" d=""##, into: &writer)
        // The pen: where the last stroke ended, in modules (x) and rows (y), quiet zone included.
        var penX = 0
        var penY = 0
        var first = true
        for y in 0..<symbol.width {
            var x = 0
            while x < symbol.width {
                guard symbol.isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < symbol.width && symbol.isDark(x: x, y: y) { x += 1 }
                let runX = start + quietZone
                let runY = y + quietZone
                if first {
                    writer.write(byte: 0x4D)  // M x y.5
                    writeDecimal(runX, into: &writer)
                    writer.write(byte: 0x20)
                    writeDecimal(runY, into: &writer)
                    write(".5", into: &writer)
                    first = false
                } else {
                    writer.write(byte: 0x6D)  // m dx dy
                    writeDecimal(runX - penX, into: &writer)
                    writer.write(byte: 0x20)
                    writeDecimal(runY - penY, into: &writer)
                }
                writer.write(byte: 0x68)  // h length
                writeDecimal(x - start, into: &writer)
                penX = runX + (x - start)
                penY = runY
            }
        }
        write(#""/></svg>"#, into: &writer)
    }

    @inline(__always)
    private static func write(_ text: StaticString, into writer: inout ByteWriter) {
        writer.write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `value` in decimal, with a `-` when negative, without allocating.
    static func writeDecimal(_ value: Int, into writer: inout ByteWriter) {
        if value < 0 { writer.write(byte: 0x2D) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        repeat {
            writer.write(byte: 0x30 + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
    }
}
