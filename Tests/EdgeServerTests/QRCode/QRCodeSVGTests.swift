import LinkCore
import TestSupport
import Testing

@testable import EdgeServer

/// The QR code's SVG read back with no browser: its frame (size, viewBox, quiet zone, colours), and a path that
/// paints exactly the modules libqrencode drew.
@Suite struct QRCodeSVGTests {
    static let urls = [
        "https://links.example.com/a/pk_acme/SAM20",
        "http://[2001:db8::1]:8080/go/a/pk_live_0123456789abcdef/%3Cb%3E%22x%22%26%27y%27",
        "https://links.example.com/" + String(repeating: "x", count: 200) + "/a/pk_acme/LEE",
    ]

    /// The symbol's dark modules, as (x, y) without the quiet zone, and its SVG.
    static func draw(_ url: String) throws -> (width: Int, dark: Set<[Int]>, svg: String) {
        let bytes = Array(url.utf8)
        let drawn = bytes.withUnsafeBytes { text in
            QRCodeSymbol.encode(text) { symbol -> (Int, Set<[Int]>, String) in
                var dark: Set<[Int]> = []
                for y in 0..<symbol.width {
                    for x in 0..<symbol.width where symbol.isDark(x: x, y: y) { dark.insert([x, y]) }
                }
                let svg = [UInt8](unsafeUninitializedCapacity: 64 * 1_024) { buffer, count in
                    var writer = ByteWriter(base: UnsafeMutableRawPointer(buffer.baseAddress!), capacity: buffer.count)
                    QRCodeSVG.write(symbol, into: &writer)
                    count = writer.overflowed ? 0 : writer.count
                }
                return (symbol.width, dark, String(decoding: svg, as: UTF8.self))
            }
        }
        let (width, dark, svg) = try #require(drawn, "libqrencode encoded \(url)")
        return (width, dark, svg)
    }

    /// The SVG the server is to show for `url`, drawn here.
    static func drawnSVG(_ url: String) -> String? {
        try? draw(url).svg
    }

    /// The modules a path `d` paints: each `h` stroke covers the row it runs along, from the pen to its end.
    static func paintedModules(_ path: String) throws -> Set<[Int]> {
        var painted: Set<[Int]> = []
        var scanner = Substring(path)
        var penX = 0
        var penY = 0
        func number() throws -> Int {
            let end = scanner.firstIndex { !($0.isNumber || $0 == "-") } ?? scanner.endIndex
            let value = try #require(Int(scanner[..<end]), "a number at \(scanner.prefix(12))")
            scanner = scanner[end...]
            return value
        }
        while let command = scanner.first {
            scanner.removeFirst()
            switch command {
            case "M":
                penX = try number()
                #expect(scanner.first == " ")
                scanner.removeFirst()
                penY = try number()
                #expect(scanner.hasPrefix(".5"), "a stroke runs along the middle of its row")
                scanner.removeFirst(2)
            case "m":
                penX += try number()
                #expect(scanner.first == " ")
                scanner.removeFirst()
                penY += try number()
            case "h":
                let length = try number()
                #expect(length > 0)
                for x in penX..<penX + length { #expect(painted.insert([x, penY]).inserted, "painted twice: \(x)") }
                penX += length
            default:
                Issue.record("unexpected command \(command)")
                return painted
            }
        }
        return painted
    }

    /// The value of `name="…"` in the first tag that has it.
    static func attribute(_ name: String, in svg: String) -> String? {
        guard let start = svg.range(of: " \(name)=\"") else { return nil }
        return String(svg[start.upperBound...].prefix { $0 != "\"" })
    }

    @Test func thePathPaintsExactlyTheDarkModules() throws {
        for url in Self.urls {
            let (width, dark, svg) = try Self.draw(url)
            let path = try #require(Self.attribute("d", in: svg))
            let painted = try Self.paintedModules(path)
            let expected = Set(dark.map { [$0[0] + QRCodeSVG.quietZone, $0[1] + QRCodeSVG.quietZone] })
            #expect(painted == expected, "\(url): width \(width)")
        }
    }

    @Test func oneSquarePathAtAFixedSizeOnWhite() throws {
        for url in Self.urls {
            let (width, _, svg) = try Self.draw(url)
            let side = width + 2 * QRCodeSVG.quietZone
            #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="180" height="180" "#))
            #expect(svg.hasSuffix(#""/></svg>"#))
            #expect(Self.attribute("viewBox", in: svg) == "0 0 \(side) \(side)")
            #expect(Self.attribute("shape-rendering", in: svg) == "crispEdges")
            #expect(svg.contains(##"<rect width="\##(side)" height="\##(side)" fill="#fff"/>"##), "a white ground")
            #expect(svg.contains(##"<path fill="none" stroke="#000" d=""##), "black modules in any colour scheme")
            #expect(svg.components(separatedBy: "<path").count == 2, "one path")
            #expect(svg.components(separatedBy: "<").count == 5, "svg, rect, path and the closing tag: no text")
            #expect(Self.attribute("aria-hidden", in: svg) == "true", "the page labels it, in the visitor's language")
        }
    }

    @Test func theQuietZoneIsFourEmptyModules() throws {
        for url in Self.urls {
            let (width, _, svg) = try Self.draw(url)
            let painted = try Self.paintedModules(try #require(Self.attribute("d", in: svg)))
            let inside = QRCodeSVG.quietZone..<(QRCodeSVG.quietZone + width)
            #expect(painted.allSatisfy { inside.contains($0[0]) && inside.contains($0[1]) })
            // The top-left finder pattern's top row: seven dark modules where the quiet zone ends.
            #expect(Self.attribute("d", in: svg)?.hasPrefix("M4 4.5h7") == true)
        }
    }

    /// A typical link is version 4 or 5 and 2-3 KB; a URL of 250 bytes still fits the cache's 8 KiB.
    @Test func sizeStaysSmall() throws {
        let typical = try Self.draw("https://links.example.com/a/pk_acme/SAM20")
        #expect(typical.width <= 37)
        #expect(typical.svg.utf8.count < 3_000, "\(typical.svg.utf8.count) bytes")
        var generator = SeededGenerator(seed: 14)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%-_")
        for _ in 0..<20 {
            let path = String((0..<223).map { _ in alphabet.randomElement(using: &generator)! })
            let long = try Self.draw("https://links.example.com/a/" + path)
            #expect(long.svg.utf8.count <= QRCodeCache.maximumSVGLength, "\(long.svg.utf8.count) bytes")
        }
    }

    @Test func decimalsAreWrittenWithoutAllocating() {
        for value in [0, 7, 10, 99, 100, 177, -1, -5, -176, 123_456] {
            let written = [UInt8](unsafeUninitializedCapacity: 16) { buffer, count in
                var writer = ByteWriter(base: UnsafeMutableRawPointer(buffer.baseAddress!), capacity: buffer.count)
                QRCodeSVG.writeDecimal(value, into: &writer)
                count = writer.count
            }
            #expect(String(decoding: written, as: UTF8.self) == String(value))
        }
    }
}
