import LinkCore

extension PostgresStore {
    public var notifiesConfigChanges: Bool { true }

    /// Listens on ``configChannel`` (from the first call, and again after every reconnect) and waits on the
    /// connection's socket for a notification.
    public func waitForConfigChange(seconds: Double) throws -> Bool {
        try withConnection { db in
            try db.listen(Self.configChannel)
            return try db.waitForNotification(seconds: seconds)
        }
    }
}
