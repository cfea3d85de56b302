import LinkCore

/// Draws a QR code as a compact inline SVG, for the desktop fallback page.
///
/// The page pays for every byte of it on every desktop tap, so it is drawn as the fewest bytes a browser needs: one
/// stroke one module wide that snakes along the rows (left to right, down one, right to left, …), turning in the
/// quiet zone, and a `stroke-dasharray` that turns it on over the dark modules and off over the light ones. The path
/// is then the same few commands for every code (`h30v1h-31v1h31…`) and each run costs only its length and a space
/// in the dash list: for a link's URL of 40-110 bytes (versions 3-7, 29-45 modules) about 1.2-2.5 KB (1,209 bytes
/// for a 41-byte URL, where one `m dx dy h n` per run and the attributes below took 1,645). The dash list covers the
/// whole path (the turns and the quiet zone are gaps), so it is never repeated; an SVG path is dashed from its one
/// `M`, so nothing restarts the pattern.
/// Chromium draws it pixel for pixel as it drew the per-run path (same size, `crispEdges`).
///
/// Only what a browser needs in an HTML page: no `xmlns` (the HTML parser puts `<svg>` in the SVG namespace), no
/// `height` (the `viewBox` is square), the white ground as the element's background instead of a `<rect>`,
/// attribute values without quotes where they have no space. The modules are black on white whatever the page's
/// colour scheme, so a phone scans it in dark mode too; `crispEdges` keeps module edges sharp at any scale. The
/// SVG holds no text of its own (the page labels it, in the visitor's language, on the element around it) and only
/// digits and fixed markup, so it goes into the page unescaped.
enum QRCodeSVG {
    /// The quiet zone on each side, in modules.
    static let quietZone = 4
    /// The width and height the page shows it at, in CSS pixels: large enough for a phone's camera at arm's length.
    static let displaySize = 180

    /// Writes the SVG of `symbol` into `writer`; on overflow `writer.overflowed` is set and the bytes are a prefix.
    ///
    /// The stroke runs along the middle of each row (`y + 0.5`), so a dash covers exactly its modules. It starts on
    /// the first row's first module and turns one module outside the symbol on each side: row 0 is `w + 1` long
    /// (its modules, then one light module to the turn), each later row `1` down plus `w + 2` across (a light
    /// module, its modules in the pen's direction, a light module).
    static func write(_ symbol: QRCodeSymbol, into writer: inout ByteWriter) {
        let width = symbol.width
        let side = width + 2 * quietZone
        write("<svg width=", into: &writer)
        writeDecimal(displaySize, into: &writer)
        write(#" viewBox="0 0 "#, into: &writer)
        writeDecimal(side, into: &writer)
        writer.write(byte: 0x20)
        writeDecimal(side, into: &writer)
        // No `style` attribute: the dashboard's Content-Security-Policy allows no inline style. Each page that
        // shows a code gives it its white ground (`#qr svg` on the fallback page, `.qr svg` on the dashboard).
        write(#"" shape-rendering=crispEdges>"#, into: &writer)
        write(#"<path fill=none stroke=#000 stroke-dasharray=""#, into: &writer)
        var dashes = DashList()
        for y in 0..<width {
            if y > 0 {
                dashes.add(dark: false, into: &writer)  // down one row
                dashes.add(dark: false, into: &writer)  // from the turn to the symbol's edge
            }
            let leftToRight = y % 2 == 0
            for step in 0..<width {
                dashes.add(dark: symbol.isDark(x: leftToRight ? step : width - 1 - step, y: y), into: &writer)
            }
            dashes.add(dark: false, into: &writer)  // from the symbol's edge to the turn
        }
        dashes.end(into: &writer)
        write(#"" d="M"#, into: &writer)
        writeDecimal(quietZone, into: &writer)
        writer.write(byte: 0x20)
        writeDecimal(quietZone, into: &writer)
        write(".5h", into: &writer)
        writeDecimal(width + 1, into: &writer)
        for y in 1..<max(width, 1) {
            write(y % 2 == 1 ? "v1h-" : "v1h", into: &writer)
            writeDecimal(width + 2, into: &writer)
        }
        write(#""/></svg>"#, into: &writer)
    }

    /// The lengths of the dark and light runs along the stroke, written as a `stroke-dasharray` as they end: dash,
    /// gap, dash, … (a first length of 0 when the stroke began on a light module).
    private struct DashList {
        private var dark = true
        private var length = 0
        private var written = 0

        mutating func add(dark module: Bool, into writer: inout ByteWriter) {
            if module != dark {
                end(into: &writer)
                dark = module
            }
            length += 1
        }

        /// Writes the current run's length.
        mutating func end(into writer: inout ByteWriter) {
            if written > 0 { writer.write(byte: 0x20) }
            QRCodeSVG.writeDecimal(length, into: &writer)
            written += 1
            length = 0
        }
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
