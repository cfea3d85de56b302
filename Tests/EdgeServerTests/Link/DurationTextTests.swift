import EdgeServer
import Testing

/// `--dedupe-window`'s values: seconds, or a number with s, m or h, up to a day.
@Suite struct DurationTextTests {
    @Test func secondsAndUnitsAreTakenUpToADay() {
        let taken: [(String, Int64)] = [
            ("3600", 3_600_000), ("90s", 90_000), ("30m", 1_800_000), ("1h", 3_600_000), ("0", 0), ("0s", 0),
            ("24h", 86_400_000), ("86400", 86_400_000), ("1440m", 86_400_000),
        ]
        for (text, milliseconds) in taken {
            #expect(DurationText.milliseconds(parsing: text) == milliseconds, "\(text)")
        }
    }

    @Test func anythingElseIsRefused() {
        for text in [
            "", "h", "1d", "-1", "+5", "1.5h", " 1h", "1h ", "25h", "86401", "1H", "1hh", "١٢", "99999999999", "0x10",
            "1e3",
        ] {
            #expect(DurationText.milliseconds(parsing: text) == nil, "\(text)")
        }
    }
}
