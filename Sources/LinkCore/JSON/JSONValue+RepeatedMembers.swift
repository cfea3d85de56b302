extension JSONValue {
    /// Where an object, at any depth, names a member twice: the path of the first such member (`event.price`,
    /// `event.subscriber_attributes.$email`, `items[2].id`), or `nil` when no object does.
    ///
    /// Readers disagree about a repeated member (``subscript(_:)`` reads the last, others the first), so a body
    /// that repeats one means different things to different readers: one that moves money is refused instead. Names
    /// are the same when their code points are (JSON's rule), not when Swift's `String` calls them equal: `"é"` and
    /// `"e\u0301"` are two members (a RevenueCat subscriber attribute is the app's to name).
    ///
    ///     try JSONParser.parse(Array(#"{"a":{"b":1,"b":2}}"#.utf8)).repeatedMemberPath  // "a.b"
    public var repeatedMemberPath: String? {
        switch self {
        case .object(let members):
            var names = Set<[UInt8]>()
            for member in members where !names.insert(Array(member.key.utf8)).inserted { return member.key }
            for member in members {
                if let inner = member.value.repeatedMemberPath { return member.key + Self.joining(inner) }
            }
            return nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let inner = item.repeatedMemberPath { return "[\(index)]" + Self.joining(inner) }
            }
            return nil
        case .null, .bool, .number, .string:
            return nil
        }
    }

    /// `inner` as the rest of a path: `.name` after a member, an index as it is.
    private static func joining(_ inner: String) -> String {
        inner.first == "[" ? inner : "." + inner
    }
}
