/// Why a document could not be received or stored.
public enum DocumentError: Error, Equatable, Sendable {
    /// gzip or deflate data was corrupt or ended early (job-state-reasons compression-error).
    case compressionError(method: String, detail: String)
    /// The document grew past the configured maximum size.
    case tooLarge(limit: Int)
    /// The disk's free space fell below the floor while the document arrived (`DiskFloor`, `--min-free-disk`).
    case diskFull(free: Int, floor: Int)
    /// Writing the job folder failed (disk full, permissions).
    case storage(path: String, errno: Int32)
    /// The connection failed while the document was arriving.
    case transfer(String)
    /// A strict printer found the data to be another format than the one named (job-state-reasons
    /// document-format-error).
    case formatMismatch(document: Int, declared: String, detected: String)
}
