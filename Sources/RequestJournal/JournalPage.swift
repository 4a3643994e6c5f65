/// Entries of the journal that a query selects, as one answer holds them (`Journal.page`).
public struct JournalPage: Sendable {
    /// The entries, oldest first.
    public var entries: [JournalEntry]
    /// Whether more entries the query selects follow the last one (the answer names the next page).
    public var more: Bool
    /// The number of the last entry looked at: the next look at the journal starts after it.
    public var through: Int

    public init(entries: [JournalEntry], more: Bool, through: Int) {
        self.entries = entries
        self.more = more
        self.through = through
    }
}
