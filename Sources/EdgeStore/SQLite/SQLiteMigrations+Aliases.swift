extension SQLiteMigrations {
    /// The ids RevenueCat tied to a customer, by customer: the customer list reads each customer's first ids in byte
    /// order (``SQLStore/aliasesSQL(customers:)``), from this index and in its order, so that a page costs the same
    /// however many ids one customer has (the primary key is by user id, and found them only by reading every id of
    /// the organization). `app_user_id` is written out though a `WITHOUT ROWID` table's index carries its primary key
    /// anyway: the order the list reads is the index's own.
    static let aliases: Step = """
        CREATE INDEX customer_aliases_by_customer ON customer_aliases (organization_id, customer, app_user_id);
        """
}
