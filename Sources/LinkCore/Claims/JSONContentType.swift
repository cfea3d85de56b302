/// Whether a `Content-Type` value declares a JSON body: `application/json`, in any case, with optional whitespace
/// around it and any parameters after a `;` (RFC 9110 §8.3.1).
///
///     JSONContentType.matches("application/json; charset=utf-8")  // true
///     JSONContentType.matches("application/x-www-form-urlencoded")  // false
public enum JSONContentType {
    private static let name = Array("application/json".utf8)

    /// Whether `value` is `application/json`, parameters aside.
    public static func matches(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        var start = 0
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end - start == name.count else { return false }
        return zip(bytes[start..<end], name).allSatisfy { ASCII.lowercased($0) == $1 }
    }
}
