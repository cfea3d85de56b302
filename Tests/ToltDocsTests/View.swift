import Foundation

/// A stand-in for SwiftUI's `View`, with the one modifier the product docs use, `.onOpenURL`, and a way for a
/// test to play the system opening the app with a URL.
protocol View {
    /// The system opens the app with `url` while this view is shown.
    func open(_ url: URL)
}

extension View {
    /// A view without an `onOpenURL` action ignores URLs.
    func open(_ url: URL) {}

    /// Like SwiftUI's: `action` runs with each URL the app is opened with while this view is shown.
    func onOpenURL(perform action: @escaping (URL) -> Void) -> OpenURLView<Self> {
        OpenURLView(content: self, action: action)
    }
}

/// An app's content, standing in for any SwiftUI view.
struct ContentView: View {}

/// A view with an `onOpenURL` action.
struct OpenURLView<Content: View>: View {
    let content: Content
    let action: (URL) -> Void

    func open(_ url: URL) {
        content.open(url)
        action(url)
    }
}
