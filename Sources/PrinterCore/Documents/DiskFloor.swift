#if canImport(Glibc)
    import Glibc
#endif

/// The free space the disk of the output folder must keep (`--min-free-disk`): below it a printer accepts no new
/// job (`spool-area-full`), and a document arriving stops and is dropped whole rather than fill the disk.
public struct DiskFloor: Sendable {
    /// The floor of `vprinter` when `--min-free-disk` is not given.
    public static let defaultMinimumFreeBytes = 256 << 20
    /// The bytes a document writer stores between two looks at the free space.
    static let checkInterval = 8 << 20

    /// A folder on the disk watched.
    public let path: String
    /// The free bytes below which the disk counts as full.
    public let minimumFreeBytes: Int
    /// Reads the free bytes of the disk holding a path (for unprivileged users); nil when it cannot be read.
    let freeBytes: @Sendable (String) -> Int?

    /// A floor on the disk holding `path`; `freeBytes` reads its free space (statvfs unless a test gives another).
    public init(
        path: String, minimumFreeBytes: Int, freeBytes: @escaping @Sendable (String) -> Int? = DiskFloor.available
    ) {
        self.path = path
        self.minimumFreeBytes = minimumFreeBytes
        self.freeBytes = freeBytes
    }

    /// The free bytes, when they are below the floor; nil while there is room (or the space cannot be read).
    func shortfall() -> Int? {
        guard minimumFreeBytes > 0, let free = freeBytes(path), free < minimumFreeBytes else { return nil }
        return free
    }

    /// The bytes of the disk holding `path` that an unprivileged user may fill (statvfs `f_bavail`).
    public static func available(_ path: String) -> Int? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        let (bytes, overflow) = Int(clamping: stats.f_bavail).multipliedReportingOverflow(by: Int(stats.f_frsize))
        return overflow ? Int.max : bytes
    }
}

extension DiskFloor {
    /// Why new `what` (`jobs`, `scans`) are refused while the disk has `free` bytes, below the floor.
    func refusal(free: Int, of what: String) -> String {
        "The disk of the output folder has \(Self.describe(free)) free, below the floor of "
            + "\(Self.describe(minimumFreeBytes)) (--min-free-disk): no new \(what) until there is room."
    }

    /// A size as people read it: `212 MiB`, `3 GiB`, `512 bytes`.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
