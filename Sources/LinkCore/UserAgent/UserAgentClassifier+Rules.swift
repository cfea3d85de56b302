extension UserAgentClassifier {
    /// The text of `user-agent-rules.txt` beside this file, byte for byte.
    ///
    /// SwiftPM embeds the file in the binary (`.embedInCode` in
    /// Package.swift generates the internal `PackageResources`), so
    /// ``standard`` needs no file at run time (no path to configure, no file
    /// to lose in a deployment) and an edited rule reaches the binary with a
    /// plain build. Text that is not UTF-8 is a defect in the checked-in file,
    /// so it stops the process rather than being decoded with replacement
    /// characters.
    public static let rulesText: String = {
        guard let text = String(validating: PackageResources.user_agent_rules_txt, as: UTF8.self) else {
            fatalError("user-agent-rules.txt is not UTF-8")
        }
        return text
    }()
}
