import LinkCore
import Synchronization

/// The host's association files, `GET /.well-known/apple-app-site-association` (and `/apple-app-site-association`,
/// where iOS 9 looked) and `GET /.well-known/assetlinks.json`: built from the link table in force, once per
/// configuration (the first request after a reload builds them; every loop then shares those bytes).
final class AppAssociationFiles: Sendable {
    /// Which of the two files a route serves.
    enum Kind: Sendable {
        case apple
        case android
    }

    /// `--public-url`'s path (`/go` for `https://example.com/go`), before each link's `/a/` in both files' paths:
    /// the path phones see.
    let linkPathPrefix: String
    private let built = Mutex<(table: LinkTable, association: AppAssociation)?>(nil)
    /// Where a file over ``AppLinkRules/maximumDocumentSize`` is reported, once per configuration that builds it.
    private let log: @Sendable (String) -> Void

    /// `Cache-Control` of a file. Short: a cache in front keeps a removed app vouched for at most this long after the
    /// configuration changes. (Apple's CDN and phones keep their own copies on their own schedule: Apple's CDN
    /// fetches the file within a day, and devices check about weekly; Android verifies when the app is installed or
    /// updated, and Android 15 and later also refetch it now and then for its dynamic rules.)
    static let cacheControl = StaticText("public, max-age=300")

    init(publicURL: PublicURL?, log: @escaping @Sendable (String) -> Void = { _ in }) {
        linkPathPrefix = publicURL.map(Self.path(of:)) ?? ""
        self.log = log
    }

    /// The path of `url` (`https://example.com/go` → `/go`), empty for a host's root.
    static func path(of url: PublicURL) -> String {
        // `scheme://authority/path`: the path starts at the first `/` after the `//`.
        let bytes = Array(url.text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            let slash = bytes[min(colon + 3, bytes.count)...].firstIndex(of: UInt8(ascii: "/"))
        else { return "" }
        return String(decoding: bytes[slash...], as: UTF8.self)
    }

    /// The files of `table`: built once for it, by whichever loop asks first.
    func association(for table: LinkTable) -> AppAssociation {
        built.withLock { built in
            if let built, built.table === table { return built.association }
            let association = AppAssociation(
                organizations: table.organizations, programs: table.programs, linkPathPrefix: linkPathPrefix)
            built = (table, association)
            // The import measures the files with links at the host's root: a --public-url path lengthens each path
            // of both files, and can take a file the import accepted past what phones read. Served all the same (a phone
            // decides), and said, so that the operator lists fewer apps or uses a shorter path.
            for (name, file) in [
                ("apple-app-site-association", association.appleAppSiteAssociation),
                ("assetlinks.json", association.assetLinks),
            ] {
                guard let size = file?.count, size > AppLinkRules.maximumDocumentSize else { continue }
                log(
                    "warning: the host's \(name) is \(size) bytes, over the \(AppLinkRules.maximumDocumentSize) a"
                        + " phone reads (with the --public-url path \"\(linkPathPrefix)\"): its apps may not open"
                        + " these links; list fewer apps")
            }
            return association
        }
    }
}
