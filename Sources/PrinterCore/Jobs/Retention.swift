/// Which records go when a printer keeps at most a number of them (`--max-jobs` for its jobs,
/// ``ScannerDevice/maximumJobs`` for its scan jobs): the oldest ended ones first. A record that has not ended is
/// never dropped, so more than the limit stay while that many have not ended.
enum Retention {
    /// The records of `oldestFirst` to drop so that at most `limit` stay, oldest first.
    static func excess<Record>(
        oldestFirst records: some Collection<Record>, limit: Int, isEnded: (Record) -> Bool
    ) -> [Record] {
        var excess = records.count - max(0, limit)
        guard excess > 0 else { return [] }
        var dropped: [Record] = []
        for record in records where excess > 0 && isEnded(record) {
            dropped.append(record)
            excess -= 1
        }
        return dropped
    }
}
