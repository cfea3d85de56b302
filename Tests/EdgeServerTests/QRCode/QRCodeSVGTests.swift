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

    /// The modules an SVG's stroke paints: its path `d` (`M`, `h`, `v`) walked one unit at a time, each unit on or
    /// off as its `stroke-dasharray` says. A unit along a row paints the module it crosses; a unit going down must be
    /// in a gap (a dash there would paint between two rows). The dash list must cover the path exactly, with an
    /// even count, so that it is never repeated.
    static func paintedModules(_ svg: String) throws -> Set<[Int]> {
        let path = try #require(attribute("d", in: svg), "a path")
        let dashes = try #require(attribute("stroke-dasharray", in: svg), "a dash list")
            .split(separator: " ").map { try #require(Int($0), "a whole dash length: \($0)") }
        #expect(dashes.count % 2 == 0, "an even dash list is never repeated")
        #expect(dashes.allSatisfy { $0 >= 0 } && dashes.dropFirst().allSatisfy { $0 > 0 })
        var painted: Set<[Int]> = []
        var scanner = Substring(path)
        var penX = 0
        var penY = 0
        var dashIndex = 0
        var leftInDash = dashes.first ?? 0
        var walked = 0
        func number() throws -> Int {
            let end = scanner.firstIndex { !($0.isNumber || $0 == "-") } ?? scanner.endIndex
            let value = try #require(Int(scanner[..<end]), "a number at \(scanner.prefix(12))")
            scanner = scanner[end...]
            return value
        }
        /// Whether the next unit of the path is in a dash (and moves past it).
        func nextUnitIsOn() -> Bool {
            while leftInDash == 0 && dashIndex + 1 < dashes.count {
                dashIndex += 1
                leftInDash = dashes[dashIndex]
            }
            walked += 1
            guard leftInDash > 0 else { return false }  // past the list's end: counted below
            leftInDash -= 1
            return dashIndex % 2 == 0
        }
        guard scanner.first == "M" else {
            Issue.record("the path starts with M: \(path.prefix(12))")
            return painted
        }
        scanner.removeFirst()
        penX = try number()
        #expect(scanner.first == " ")
        scanner.removeFirst()
        penY = try number()
        #expect(scanner.hasPrefix(".5"), "the stroke runs along the middle of its row")
        scanner.removeFirst(2)
        while let command = scanner.first {
            scanner.removeFirst()
            let length = try number()
            #expect(length != 0)
            let step = length > 0 ? 1 : -1
            for _ in 0..<abs(length) {
                let on = nextUnitIsOn()
                switch command {
                case "h":
                    let module = step > 0 ? penX : penX - 1
                    if on { #expect(painted.insert([module, penY]).inserted, "painted twice: \(module), \(penY)") }
                    penX += step
                case "v":
                    #expect(!on, "a dash on the way down from row \(penY)")
                    penY += step
                default:
                    Issue.record("unexpected command \(command)")
                    return painted
                }
            }
        }
        #expect(walked == dashes.reduce(0, +), "the dash list covers the path exactly")
        return painted
    }

    /// The value of `name="…"` (or `name=…` without quotes, up to a space or `>`) in the first tag that has it.
    static func attribute(_ name: String, in svg: String) -> String? {
        guard let start = svg.range(of: " \(name)=") else { return nil }
        let value = svg[start.upperBound...]
        if value.first == "\"" { return String(value.dropFirst().prefix { $0 != "\"" }) }
        return String(value.prefix { $0 != " " && $0 != ">" })
    }

    @Test func thePathPaintsExactlyTheDarkModules() throws {
        for url in Self.urls {
            let (width, dark, svg) = try Self.draw(url)
            let painted = try Self.paintedModules(svg)
            let expected = Set(dark.map { [$0[0] + QRCodeSVG.quietZone, $0[1] + QRCodeSVG.quietZone] })
            #expect(painted == expected, "\(url): width \(width)")
        }
    }

    /// Only what a browser needs: the size, the square `viewBox`, black strokes with crisp edges, one path, no text
    /// (the page labels the element around it, in the visitor's language), and no inline style (the page's style
    /// sheet gives the white ground, which the fallback page's and the dashboard's browser tests check).
    @Test func oneSquarePathAtAFixedSizeOnWhite() throws {
        for url in Self.urls {
            let (width, _, svg) = try Self.draw(url)
            let side = width + 2 * QRCodeSVG.quietZone
            #expect(svg.hasPrefix(#"<svg width=180 viewBox="0 0 \#(side) \#(side)" "#))
            #expect(svg.hasSuffix(#""/></svg>"#))
            #expect(Self.attribute("viewBox", in: svg) == "0 0 \(side) \(side)")
            #expect(Self.attribute("shape-rendering", in: svg) == "crispEdges")
            #expect(Self.attribute("style", in: svg) == nil, "no inline style: the dashboard's CSP refuses one")
            #expect(svg.contains(##"<path fill=none stroke=#000 stroke-dasharray=""##), "black in any colour scheme")
            #expect(svg.components(separatedBy: "<path").count == 2, "one path")
            #expect(svg.components(separatedBy: "<").count == 4, "svg, path and the closing tag: no text")
            #expect(!svg.contains("xmlns") && !svg.contains("<rect") && !svg.contains("focusable"))
        }
    }

    @Test func theQuietZoneIsFourEmptyModules() throws {
        for url in Self.urls {
            let (width, _, svg) = try Self.draw(url)
            let painted = try Self.paintedModules(svg)
            let inside = QRCodeSVG.quietZone..<(QRCodeSVG.quietZone + width)
            #expect(painted.allSatisfy { inside.contains($0[0]) && inside.contains($0[1]) })
            // The stroke starts where the quiet zone ends, on the top-left finder pattern's top row: seven dark
            // modules.
            #expect(Self.attribute("d", in: svg)?.hasPrefix("M4 4.5h\(width + 1)v1h-\(width + 2)") == true)
            #expect(Self.attribute("stroke-dasharray", in: svg)?.hasPrefix("7 ") == true)
        }
    }

    /// A typical link's URL (40 bytes, version 3) gives about 1.2 KB (1.6 KB drawn one `m dx dy h n` per run, 2.2 KB
    /// with the attributes a browser does not need); a URL of 250 bytes still fits the cache's 6 KiB.
    @Test func sizeStaysSmall() throws {
        let typical = try Self.draw("https://links.example.com/a/pk_acme/SAM20")
        #expect(typical.width <= 29)
        #expect(typical.svg.utf8.count < 1_300, "\(typical.svg.utf8.count) bytes")
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
