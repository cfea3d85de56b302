import Tolt  // stand-in

/// The getting-started article's error handling, as it prints it (whitespace aside); `typedCode` is what the user
/// typed and `showMessage` a stand-in for the app's UI. `ProductDocsTextTests` compares it with the article.
enum ErrorHandlingSnippet {  // stand-in
    /// Claims `typedCode` for the current user, telling the user what went wrong.
    static func claim(typedCode: String) async {  // stand-in
        do {
            _ = try await Tolt.claim(code: typedCode, appUserId: Purchases.shared.appUserID)
        } catch ToltError.unknownCode {
            showMessage("That code does not exist.")
        } catch ToltError.claimWindowClosed {
            showMessage("Codes can be entered in the first days after installing.")
        } catch {
            // Network failures, rate limits and server errors (already retried: try again later), or CancellationError.
        }
    }  // stand-in
}  // stand-in
