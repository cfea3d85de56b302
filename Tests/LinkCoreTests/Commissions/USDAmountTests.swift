import Testing

@testable import LinkCore

/// `USDAmount` reads the text of a JSON number exactly; commissions are whole cents rounded half up (away from
/// zero for refunds).
@Suite struct USDAmountTests {
    @Test(arguments: [
        ("4.99", Int64(4_990_000)), ("0", 0), ("0.0", 0), ("1", 1_000_000), ("12.5", 12_500_000),
        ("0.000001", 1), ("9.999999", 9_999_999), ("10000000", USDAmount.maximumMicros),
    ])
    func readsExactMicros(text: String, micros: Int64) {
        #expect(USDAmount(parsing: text)?.micros == micros)
    }

    @Test(arguments: [
        ("4.99", Int64(499)), ("0.99", 99), ("0.01", 1), ("0", 0), ("1", 100), ("49.99", 4_999), ("0.005", 1),
        ("0.004", 0), ("0.0049", 0), ("0.015", 2), ("2.675", 268), ("1.005", 101), ("10000000", 1_000_000_000),
    ])
    func centsRoundHalfUp(text: String, cents: Int64) {
        #expect(USDAmount(parsing: text)?.cents == cents)
    }

    /// A double would read 2.675 and 1.005 just below the half cent; the exact text rounds up.
    @Test func roundsTheDecimalTextNotItsBinaryApproximation() {
        #expect(USDAmount(parsing: "2.675")?.cents == 268)
        #expect(USDAmount(parsing: "1.005")?.cents == 101)
        #expect(USDAmount(parsing: "0.285")?.cents == 29)
    }

    @Test(arguments: [
        ("1e2", Int64(100_000_000)), ("1E2", 100_000_000), ("4.99E0", 4_990_000), ("4.99e0", 4_990_000),
        ("499e-2", 4_990_000), ("499E-2", 4_990_000), ("0.0499e2", 4_990_000), ("1e+2", 100_000_000),
        ("5e-7", 1), ("4e-7", 0), ("1e-400", 0), ("1e6", 1_000_000_000_000), ("1e7", USDAmount.maximumMicros),
        // Any exponent is read: one that leaves less than 10⁻¹⁸ USD gives zero.
        ("1e-401", 0), ("1e-99999", 0), ("1e-99999999999999999999", 0), ("-1e-401", 0), ("0e400", 0),
        ("0e99999999999999999999", 0), ("1000000000000000000000000e-17", USDAmount.maximumMicros),
        ("4990000000000000000000000000000e-30", 4_990_000),
    ])
    func readsExponents(text: String, micros: Int64) {
        #expect(USDAmount(parsing: text)?.micros == micros)
    }

    /// Amounts are exact to 10⁻¹⁸ USD: one such unit is more than zero and tells two amounts apart; digits past
    /// the eighteenth decimal are dropped.
    @Test func keepsEighteenDecimals() throws {
        let atto = try #require(USDAmount(parsing: "0.000000000000000001"))
        #expect(atto.isPositive)
        #expect(atto.micros == 0)
        #expect(atto.cents == 0)
        #expect(try #require(USDAmount(parsing: "1e-18")) == atto)
        #expect(try #require(USDAmount(parsing: "-1e-18")).isNegative)
        #expect(try #require(USDAmount(parsing: "4.990000000000000001")) > USDAmount(micros: 4_990_000))
        let beyond = try #require(USDAmount(parsing: "0.0000000000000000009"))
        #expect(!beyond.isPositive)
        #expect(beyond == USDAmount(micros: 0))
        #expect(USDAmount(parsing: "1e-19") == USDAmount(micros: 0))
        #expect(USDAmount(parsing: "4.9900000000000000009") == USDAmount(micros: 4_990_000))
    }

    /// 0.004999999999999999 USD is 10⁻¹⁸ below half a cent: 0 cents; one more 10⁻¹⁸ makes half a cent: 1.
    @Test func roundsHalfACentAtTheEighteenthDecimal() {
        #expect(USDAmount(parsing: "0.004999999999999999")?.cents == 0)
        #expect(USDAmount(parsing: "0.005000000000000000")?.cents == 1)
        #expect(USDAmount(parsing: "-0.004999999999999999")?.cents == 0)
        #expect(USDAmount(parsing: "-0.005")?.cents == -1)
    }

    @Test(arguments: [
        ("-4.99", Int64(-4_990_000), Int64(-499)), ("-0.005", -5_000, -1), ("-0.004", -4_000, 0),
        ("-12.345", -12_345_000, -1_235), ("-1e1", -10_000_000, -1_000),
        ("-10000000", -USDAmount.maximumMicros, -1_000_000_000),
    ])
    func negativesAreRefundsRoundedAwayFromZero(text: String, micros: Int64, cents: Int64) {
        let amount = USDAmount(parsing: text)
        #expect(amount?.micros == micros)
        #expect(amount?.cents == cents)
    }

    @Test func negativeZeroIsZero() {
        #expect(USDAmount(parsing: "-0")?.micros == 0)
        #expect(USDAmount(parsing: "-0.0")?.cents == 0)
    }

    @Test(arguments: [
        ("04.99", Int64(4_990_000)), ("0004.99", 4_990_000), ("00", 0), ("-004.99", -4_990_000),
        ("00000000000000000000000001", 1_000_000),
    ])
    func leadingZerosDoNotCount(text: String, micros: Int64) {
        #expect(USDAmount(parsing: text)?.micros == micros)
    }

    /// Millionths and cents are each rounded half up from the exact amount (cents are not rounded from the
    /// millionths).
    @Test(arguments: [
        ("3.876543219", Int64(3_876_543), Int64(388)), ("3.8765435", 3_876_544, 388), ("3.87654349999", 3_876_543, 388),
        ("0.0000005", 1, 0), ("0.00000049", 0, 0), ("4.990000000000000000001", 4_990_000, 499),
        ("1.23456789012345678901234567890", 1_234_568, 123),
    ])
    func manyDecimals(text: String, micros: Int64, cents: Int64) {
        let amount = USDAmount(parsing: text)
        #expect(amount?.micros == micros)
        #expect(amount?.cents == cents)
    }

    /// The specification rounds the amount once, to cents: 12.3449997 USD is 1234.49997 cents, so 1234. Rounding
    /// to millionths first (12.345000) and then to cents gives 1235.
    @Test func roundsToCentsOnceNotTwice() {
        #expect(USDAmount(parsing: "12.3449997")?.cents == 1_234)
        #expect(USDAmount(parsing: "0.0049999999")?.cents == 0)
        #expect(USDAmount(parsing: "-12.3449997")?.cents == -1_234)
    }

    @Test(arguments: [
        "10000000.000001", "10000001", "-10000000.000001", "1e8", "1.0000001e7", "99999999999999999999",
        "1e400", "1e401", "1e99999999999999999999", "123456789012345678901234567890", "1000000000000000000000001e-17",
        "1.00000000000000000001e7", "-1e99999",
    ])
    func refusesWhatIsOutOfRange(text: String) {
        #expect(USDAmount(parsing: text) == nil)
    }

    @Test func theLargestAmountRoundingUpStaysInRange() {
        #expect(USDAmount(parsing: "9999999.9999995")?.micros == USDAmount.maximumMicros)
        #expect(USDAmount(parsing: "10000000.0000005") == nil)
    }

    @Test(arguments: [
        "", "-", ".", "-.", "e2", "1e", "1e+", "1e-", "1ee2", "1e2.5", "1e2x", "abc", "4.99.1", "4,99", "--1", "+1",
        " 1", "1 ", "1_000", "0x10", "NaN", "Infinity", "-Infinity", "$4.99", "4.99USD", "\u{0}", "٤",
    ])
    func refusesWhatIsNotANumber(text: String) {
        #expect(USDAmount(parsing: text) == nil)
    }

    @Test(arguments: [
        // (price, basis points, cents): 20 % of 4.99 is 99.8 cents, 15 % of 3.33 is 49.95, 12.5 % of 9.99 is 124.875.
        ("4.99", 2_000, Int64(100)), ("3.33", 1_500, 50), ("9.99", 1_250, 125), ("4.99", 10_000, 499),
        ("4.99", 1, 0), ("0.01", 5_000, 1), ("0.01", 4_999, 0), ("0.03", 5_000, 2), ("100", 1, 1),
        ("49.99", 3_000, 1_500), ("2.5", 1_000, 25), ("0.05", 1_000, 1), ("0.049", 1_000, 0),
        ("10000000", 10_000, 1_000_000_000), ("3.876543219", 2_000, 78),
    ])
    func percentRoundsHalfUp(text: String, basisPoints: Int, cents: Int64) throws {
        let amount = try #require(USDAmount(parsing: text))
        #expect(amount.cents(timesBasisPoints: basisPoints) == cents)
    }

    @Test func percentOfARefundIsNegative() throws {
        let refund = try #require(USDAmount(parsing: "-4.99"))
        #expect(refund.cents(timesBasisPoints: 2_000) == -100)
        #expect(refund.cents(timesBasisPoints: 1_500) == -75)
    }

    /// 20 % of 4.9749999997 USD is 99.49999999 cents: 99. Rounding the price to millionths first (4.975000)
    /// makes it 99.5 and then 100.
    @Test func percentRoundsOnceNotTwice() throws {
        let price = try #require(USDAmount(parsing: "4.9749999997"))
        #expect(price.cents(timesBasisPoints: 2_000) == 99)
    }

    @Test func comparesByValue() throws {
        let small = try #require(USDAmount(parsing: "4.99"))
        let large = try #require(USDAmount(parsing: "5"))
        let refund = try #require(USDAmount(parsing: "-4.99"))
        #expect(small < large)
        #expect(refund < small)
        #expect(USDAmount(parsing: "4.990") == small)
        #expect(USDAmount(parsing: "499e-2") == small)
        #expect(USDAmount(micros: 4_990_000) == small)
    }
}
