import Foundation
import Tolt

/// The product docs' Swift snippet, statement for statement as the docs print it (whitespace aside), with only
/// `import Foundation` (for `URL`) and `import Tolt`. `Purchases` (RevenueCat's SDK), the SwiftUI-like `View` and
/// `showMessage` (the app's way of telling the user) are this target's stand-ins.
///
/// The docs print three fragments; each sits here where an app would put it: configuring and claiming a typed
/// code at launch, the root view's `.onOpenURL`, and a click id the app got elsewhere. If the SDK's API drifts
/// from the docs, this file stops compiling; if the docs drift from this file, `ProductDocsTextTests` fails. It
/// compares the code here, without comments and without the lines marked `// stand-in` (what an app wraps the
/// docs' fragments in), with the Swift blocks of README's "In your app" and of the DocC catalog.
enum ProductDocsSnippet {  // stand-in
    /// At launch, and when the user types a partner's code.
    static func configureAndClaimCode() async throws -> ClaimResult {  // stand-in
        Tolt.configure(
            publicId: "YOUR_PUBLIC_KEY",
            baseURL: URL(string: "https://links.example.com")!
        )

        let result = try await Tolt.claim(
            code: "SAM20",
            appUserId: Purchases.shared.appUserID
        )
        if let code = result.code {
            showMessage("Code \(code) applied")
        }
        return result  // stand-in
    }  // stand-in

    /// The app's root view: claims the deep link the app is opened with.
    static func rootView() -> some View {  // stand-in
        ContentView()  // stand-in
            .onOpenURL { url in
                Task {
                    _ = try await Tolt.claim(
                        url: url,
                        appUserId: Purchases.shared.appUserID
                    )
                }
            }
    }  // stand-in

    /// A click id the app read itself (from its own link handling or an install referrer).
    static func claim(clickId: String) async throws {  // stand-in
        _ = try await Tolt.claim(
            clickId: clickId,
            appUserId: Purchases.shared.appUserID
        )
    }  // stand-in
}  // stand-in
