/// An error from the store. New cases never break callers: match on ``code``.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case database, invalidConfig, conflict, io, unavailable, newerSchema, unknownCursor, unknownFilter
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
    /// The database cannot be reached now (a shared store that is down or restarting): retry later. A request that
    /// needs it is answered `503`; the link path never waits on it.
    public static func unavailable(_ message: String) -> StoreError {
        StoreError(kind: .unavailable, message: message)
    }

    /// A newer build migrated the store in a way this one does not know (``SchemaCompatibility``): this build must not
    /// use it, now or after a retry.
    public static func newerSchema(_ message: String) -> StoreError {
        StoreError(kind: .newerSchema, message: message)
    }

    /// A list's `starting_after` names no row of the organization's list (a typo, an id of another list or
    /// organization, or a row since deleted): there is no place to continue from, which an empty page would hide.
    public static func unknownCursor(_ message: String) -> StoreError {
        StoreError(kind: .unknownCursor, message: message)
    }

    /// A list's filter names no row of the organization (a payout id of another organization, a typo): a list of
    /// nothing would read as "none there". The message names the value, not the parameter, which the caller does.
    public static func unknownFilter(_ message: String) -> StoreError {
        StoreError(kind: .unknownFilter, message: message)
    }

    /// A stable machine code: `database`, `invalid_config`, `conflict`, `io`, `unavailable`, `newer_schema`,
    /// `unknown_cursor` or `unknown_filter`.
    public var code: String {
        switch kind {
        case .invalidConfig: "invalid_config"
        case .newerSchema: "newer_schema"
        case .unknownCursor: "unknown_cursor"
        case .unknownFilter: "unknown_filter"
        default: kind.rawValue
        }
    }
    public var isInvalidConfig: Bool { kind == .invalidConfig }
    public var isConflict: Bool { kind == .conflict }
    public var isUnavailable: Bool { kind == .unavailable }
    public var isNewerSchema: Bool { kind == .newerSchema }
    public var isUnknownCursor: Bool { kind == .unknownCursor }
    public var isUnknownFilter: Bool { kind == .unknownFilter }

    public var description: String { message }
}
