/// An error from the store. New cases never break callers: match on ``code``.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case database, invalidConfig, conflict, io
    }

    let kind: Kind
    /// What happened, for people.
    public let message: String

    /// The database refused a statement.
    public static func database(_ message: String) -> StoreError { StoreError(kind: .database, message: message) }
    /// A configuration value breaks a rule; the message names the field.
    public static func invalidConfig(_ message: String) -> StoreError {
        StoreError(kind: .invalidConfig, message: message)
    }
    /// Someone else changed the data between a read and the write that depended on it.
    public static func conflict(_ message: String) -> StoreError { StoreError(kind: .conflict, message: message) }
    /// A file of the data directory could not be read or written.
    public static func io(_ message: String) -> StoreError { StoreError(kind: .io, message: message) }

    /// A stable machine code: `database`, `invalid_config`, `conflict` or `io`.
    public var code: String { kind == .invalidConfig ? "invalid_config" : kind.rawValue }
    public var isInvalidConfig: Bool { kind == .invalidConfig }
    public var isConflict: Bool { kind == .conflict }

    public var description: String { message }
}
