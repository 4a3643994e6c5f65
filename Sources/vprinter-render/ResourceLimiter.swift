import Glibc

/// Sets the worker's own resource limits (setrlimit), used only when the request asks for them; the printer
/// normally applies them when it starts the worker.
enum ResourceLimiter {
    /// RLIMIT_CORE 0, soft and hard, set first thing at every start: a worker (or its Ghostscript, which inherits
    /// the limit) that crashes on a document leaves no core file, holding the client's document and the job's
    /// pages, in its working folder or anywhere else, and cannot raise the limit again. Returns whether it was set.
    @discardableResult
    static func forbidCoreFiles() -> Bool {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        return setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0
    }

    static func apply(addressSpace: Int?, cpuSeconds: Int?) {
        limitAddressSpace(to: addressSpace)
        if let cpuSeconds, cpuSeconds > 0 {
            var limit = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
            setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        }
    }

    /// The limits of one more request to a worker kept for several (`--serve`): the address space as for one, and
    /// CPU seconds counted from what the worker has used so far (RLIMIT_CPU counts a process's whole life). Only
    /// the soft CPU limit is set, so that the next request may move it again.
    static func applyForNextRequest(addressSpace: Int?, cpuSeconds: Int?) {
        limitAddressSpace(to: addressSpace)
        guard let cpuSeconds, cpuSeconds > 0 else { return }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        limit.rlim_cur = min(rlim_t(used + cpuSeconds), limit.rlim_max)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    /// RLIMIT_AS, soft and hard, when a positive size is given.
    private static func limitAddressSpace(to bytes: Int?) {
        guard let bytes, bytes > 0 else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    }
}
