import IPP

/// The output folder's disk below its floor (`DiskFloor`, `--min-free-disk`): `spool-area-full` and
/// printer-is-accepting-jobs false while it lasts, and new jobs refused with the free space named.
extension Printer {
    /// Looks at the free space and states `spool-area-full` or clears it; returns the free bytes when below the floor.
    @discardableResult
    public func checkDiskSpace() -> Int? {
        guard let floor = configuration.diskFloor else { return nil }
        let free = floor.shortfall()
        let full = free != nil
        if status.withLock({ $0.spoolAreaFull }) != full {
            updatePrinter { $0.spoolAreaFull = full }
            if let free {
                log(
                    "the disk of \(floor.path) has \(DiskFloor.describe(free)) free, below the floor of "
                        + "\(DiskFloor.describe(floor.minimumFreeBytes)) (--min-free-disk): no new jobs until there is room"
                )
            } else {
                log("the disk of \(floor.path) has room again: accepting jobs")
            }
        }
        return free
    }

    /// The refusal of a new job while the disk is below its floor; nil when there is room.
    func diskFullRefusal() -> IPPResponseError? {
        guard let free = checkDiskSpace(), let floor = configuration.diskFloor else { return nil }
        return IPPResponseError(.serverErrorNotAcceptingJobs, floor.refusal(free: free, of: "jobs"))
    }
}
