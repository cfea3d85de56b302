import LinkCore
import Testing

/// `#rrggbb` parsing, and the text colour that stays readable on it.
@Suite struct BrandColorTests {
    @Test func onlySixHexDigitsAfterAHashParse() {
        #expect(BrandColor("#3B5bdB")?.text == "#3b5bdb")
        #expect(BrandColor("#000000") == BrandColor("#000000"))
        for bad in ["", "#", "#123", "#12345", "#1234567", "3b5bdb", "#ggg000", "red", "#12 456", "＃123456"] {
            #expect(BrandColor(bad) == nil, "\(bad)")
        }
    }

    /// WCAG 2's sRGB transfer, checked against values computed with `pow`.
    @Test func luminanceFollowsWCAG() {
        #expect(abs(BrandColor("#ffffff")!.relativeLuminance - 1) < 1e-9)
        #expect(BrandColor("#000000")!.relativeLuminance == 0)
        // ((128/255 + 0.055) / 1.055)^2.4 = 0.21586050011389926
        #expect(abs(BrandColor("#808080")!.relativeLuminance - 0.21586050011389926) < 1e-9)
        // 0.2126 * ((59/255+0.055)/1.055)^2.4 + 0.7152 * ((91/255+0.055)/1.055)^2.4 + 0.0722 * ((219/255+0.055)/1.055)^2.4
        #expect(abs(BrandColor("#3b5bdb")!.relativeLuminance - 0.13526450795017003) < 1e-9)
    }

    @Test func lightColoursGetDarkTextAndDarkColoursWhite() {
        for light in ["#ffffff", "#ffd400", "#a7f3d0", "#00ff00", "#ff9900", "#cccccc", "#777777"] {
            #expect(BrandColor(light)!.textColor == BrandColor.darkText, "\(light)")
        }
        for dark in ["#000000", "#3b5bdb", "#7c3aed", "#b91c1c", "#0f766e", "#757575"] {
            #expect(BrandColor(dark)!.textColor == BrandColor.lightText, "\(dark)")
        }
    }

    /// Black or white text reaches 4.5:1 (WCAG 2's text contrast) on every grey and on the colours between, the
    /// mid-grey `#777777` among them (with `#111111` for dark text, neither reached it there).
    @Test func everyColourGetsTextAt4Point5To1() {
        var colours = (0...255).map { BrandColor(red: UInt8($0), green: UInt8($0), blue: UInt8($0)) }
        for red in stride(from: 0, through: 255, by: 15) {
            for green in stride(from: 0, through: 255, by: 15) {
                for blue in stride(from: 0, through: 255, by: 15) {
                    colours.append(BrandColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue)))
                }
            }
        }
        for colour in colours {
            let text = BrandColor(colour.textColor)!
            #expect(colour.contrastRatio(with: text) >= 4.5, "\(text.text) on \(colour.text)")
        }
        #expect(BrandColor("#777777")!.textColor == BrandColor.darkText)
    }

    /// The button's edge and focus ring: the brand colour where it stands out from the page at 3:1, else the page's
    /// text colour, so a white button keeps a dark edge on the light page and a black one a light edge on the dark.
    @Test func theEdgeStandsOutFromThePageInEachScheme() {
        let cases: [(String, light: String, dark: String)] = [
            ("#ffffff", BrandColor.darkText, "#ffffff"), ("#000000", "#000000", BrandColor.lightText),
            ("#777777", "#777777", "#777777"), ("#3b5bdb", "#3b5bdb", "#3b5bdb"),
            ("#ffd400", BrandColor.darkText, "#ffd400"),
            ("#f0f0f0", BrandColor.darkText, "#f0f0f0"), ("#1a1a1a", "#1a1a1a", BrandColor.lightText),
            ("#959595", BrandColor.darkText, "#959595"), ("#949494", "#949494", "#949494"),
        ]
        for (color, light, dark) in cases {
            let brand = BrandColor(color)!
            #expect(brand.lightPageEdgeColor == light, "\(color) on the light page")
            #expect(brand.darkPageEdgeColor == dark, "\(color) on the dark page")
            for (edge, page) in [(light, BrandColor.lightPage), (dark, BrandColor.darkPage)] {
                #expect(BrandColor(edge)!.contrastRatio(with: page) >= 3, "\(color): \(edge) on \(page.text)")
            }
        }
        #expect(abs(BrandColor.lightPage.contrastRatio(with: BrandColor("#000000")!) - 21) < 1e-9)
        #expect(BrandColor("#3b5bdb")!.contrastRatio(with: BrandColor("#3b5bdb")!) == 1)
    }

    /// A value stored by another tool that breaks the rules is dropped when the link table is built: no page shows
    /// it.
    @Test func programSettingsDropBrandingThatBreaksTheRules() {
        let record = ProgramRecord(
            id: "prg_x", organizationID: "org_x", name: "X", appName: "A\nB", appIconURL: "http://cdn.example/i.png",
            brandColor: "#fff;}</style>", ogImageURL: "javascript:alert(1)", ogDescription: "")
        let settings = ProgramSettings(record: record, organizationName: "Org")
        #expect(settings.record.appName == nil && settings.displayName == "X")
        #expect(settings.record.appIconURL == nil && settings.record.ogImageURL == nil)
        #expect(settings.record.brandColor == nil && settings.brandTextColor == nil)
        #expect(settings.record.ogDescription == nil)

        let good = ProgramSettings(
            record: ProgramRecord(
                id: "prg_y", organizationID: "org_x", name: "Y", appName: "Why", brandColor: "#FFD400"),
            organizationName: "Org")
        #expect(good.displayName == "Why" && good.record.brandColor == "#ffd400")
        #expect(good.brandTextColor == BrandColor.darkText)
    }
}
