import Tolt

/// The product docs' Swift snippet, statement for statement as the docs print it (indentation aside), with only
/// `import Tolt`. `Purchases` (RevenueCat's SDK) and the SwiftUI-like `View` are this target's stand-ins.
///
/// The docs print three fragments; each sits here where an app would put it: configuring and claiming a typed
/// code at launch, the root view's `.onOpenURL`, and a click id the app got elsewhere. If the SDK's API drifts
/// from the docs, this file stops compiling.
enum ProductDocsSnippet {
    /// At launch, and when the user types a partner's code.
    static func configureAndClaimCode() async throws -> ClaimResult {
        Tolt.configure(publicId: "YOUR_PUBLIC_KEY")

        let result = try await Tolt.claim(
            code: "SAM20",
            appUserId: Purchases.shared.appUserID
        )
        return result
    }

    /// The app's root view: claims the deep link the app is opened with.
    static func rootView() -> some View {
        ContentView()
            .onOpenURL { url in
                Task {
                    _ = try await Tolt.claim(
                        url: url,
                        appUserId: Purchases.shared.appUserID
                    )
                }
            }
    }

    /// A click id the app read itself (from its own link handling or an install referrer).
    static func claim(clickId: String) async throws {
        _ = try await Tolt.claim(
            clickId: clickId,
            appUserId: Purchases.shared.appUserID
        )
    }
}
