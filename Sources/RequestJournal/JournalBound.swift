import PrintModel

/// What `--journal-size` bounds the journal's memory by: a number of entries (a plain number, as it always took),
/// or the bytes they may hold (a size with its unit, `64MiB`, `500KB`: `ByteSize`). The option given both ways sets
/// both bounds; each keeps its default otherwise (`Journal.defaultCapacity`, `Journal.defaultByteLimit`).
public enum JournalBound: Sendable, Hashable {
    /// Entries kept; 0 turns the journal off.
    case entries(Int)
    /// Bytes the entries may hold, more than 0.
    case bytes(Int)

    /// The bound `text` gives; nil for a negative number, a size of 0 or anything that is neither.
    public init?(_ text: String) {
        if ByteSize.hasUnit(text) {
            guard let bytes = ByteSize.parse(text), bytes > 0 else { return nil }
            self = .bytes(bytes)
        } else {
            guard let count = Int(text), count >= 0 else { return nil }
            self = .entries(count)
        }
    }
}
