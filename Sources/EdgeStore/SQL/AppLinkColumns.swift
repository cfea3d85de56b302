import LinkCore

/// A program's `ios_app_ids` and `android_apps` columns: JSON arrays in the import form, null for none. Text rather
/// than a table of their own: they are read and written whole, with the program, and an older build that knows
/// nothing of them leaves them as they are.
enum AppLinkColumns {
    /// The column's text for `ids`; `nil` (null) for none.
    static func text(_ ids: [String]) -> String? {
        guard !ids.isEmpty else { return nil }
        var json = JSONWriter()
        json.array(ids) { id, json in json.string(id) }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The column's text for `apps`; `nil` (null) for none.
    static func text(_ apps: [AndroidApp]) -> String? {
        guard !apps.isEmpty else { return nil }
        var json = JSONWriter()
        AndroidApp.write(apps, into: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The ids a column holds. Text that is not such an array (another tool wrote it) reads as none: the importer
    /// checked what it wrote, and the association files must never carry what a phone cannot read.
    static func iosAppIDs(_ text: String?) -> [String] {
        guard let text, case .array(let items)? = try? JSONParser.parse(Array(text.utf8)) else { return [] }
        return items.compactMap {
            guard case .string(let id) = $0, (try? AppLinkRules.validateIOSAppID(id)) != nil else { return nil }
            return id
        }
    }

    /// The apps a column holds; as ``iosAppIDs(_:)``, what does not read as an app is left out.
    static func androidApps(_ text: String?) -> [AndroidApp] {
        guard let text, case .array(let items)? = try? JSONParser.parse(Array(text.utf8)) else { return [] }
        return items.compactMap { item in
            guard case .string(let name)? = item["package_name"], (try? AppLinkRules.validatePackageName(name)) != nil,
                case .array(let values)? = item["sha256_cert_fingerprints"]
            else { return nil }
            let fingerprints = values.compactMap { value -> String? in
                guard case .string(let text) = value else { return nil }
                return try? AppLinkRules.normalizedFingerprint(text)
            }
            return fingerprints.isEmpty ? nil : AndroidApp(packageName: name, fingerprints: fingerprints)
        }
    }
}
