#if canImport(Glibc)
    import Glibc
#endif

/// Wall-clock time in seconds since 1970, the one clock the printer reads.
package enum WallClock {
    package static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
