import EdgeStore

/// Reading back every click a test made, whichever store connection or process recorded it.
extension Store {
    /// Every stored click of `organizationID`, newest first, read page by page as `GET /v1/clicks` pages them.
    package func allClicks(organizationID: String = "org_acme") throws -> [ClickRecord] {
        var clicks: [ClickRecord] = []
        var query = ClickQuery(organizationID: organizationID, limit: ClickQuery.maximumLimit)
        while true {
            let page = try self.clicks(query)
            clicks += page.items
            guard page.hasMore, let last = page.items.last else { return clicks }
            query.startingAfter = last.id
        }
    }
}
