import EdgeStore

extension ImportReport {
    /// No change, no warning and no generated key: what a repeated import must report.
    var reportsNothing: Bool { changes.isEmpty && warnings.isEmpty && generatedSecrets.isEmpty }
}
