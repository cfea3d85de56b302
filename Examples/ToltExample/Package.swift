// swift-tools-version:6.0
import PackageDescription

// An app's package that uses the Tolt SDK. An app depends on it by URL (no releases are tagged yet: a branch or a
// `revision:`), `.package(url: "https://github.com/<owner>/tolt-edge", branch: "main")` with
// `.product(name: "Tolt", package: "tolt-edge")`; this example depends on the repository around it by path, and only
// the `Tolt` library of it is built.
//
// SwiftPM names a path dependency after its directory: `tolt-edge` in a clone, but a worktree may have another name.
let toltEdge = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "tolt-edge"

let package = Package(
    name: "ToltExample",
    platforms: [.macOS(.v12), .iOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "ToltExample", dependencies: [.product(name: "Tolt", package: toltEdge)])
    ],
    swiftLanguageModes: [.v6]
)
