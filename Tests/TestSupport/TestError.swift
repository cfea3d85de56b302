/// The one error the test helpers throw: a sentence saying what went wrong, shown as is in the test's failure.
///
/// Helpers throw instead of recording issues themselves, so a failure is reported at the test's own `try`
/// (or `#expect(throws:)`), and `TestSupport` stays an ordinary target that does not import Swift Testing.
package struct TestError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
