import Glibc

/// Sets the worker's own resource limits (setrlimit), used only when the request asks for them; the printer
/// normally applies them when it starts the worker.
enum ResourceLimiter {
    static func apply(addressSpace: Int?, cpuSeconds: Int?) {
        if let addressSpace, addressSpace > 0 {
            var limit = rlimit(rlim_cur: rlim_t(addressSpace), rlim_max: rlim_t(addressSpace))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
        if let cpuSeconds, cpuSeconds > 0 {
            var limit = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
            setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        }
    }
}
