import Foundation

/// A JSON value re-serialized with sorted keys, so that two documents compare by content.
func canonicalJSON(_ object: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    else { return "<not JSON: \(object)>" }
    return String(decoding: data, as: UTF8.self)
}
