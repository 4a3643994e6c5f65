import Glibc

/// The one wrapper every system call of the module goes through: retries `EINTR`, throws errno otherwise
/// (the pattern of swift-system's `Syscalls.swift`).
enum Syscall {
    /// Runs `body` until it returns something other than -1 with `EINTR`; -1 with any other errno throws
    /// `HTTPServerError.system` naming the call.
    @inline(__always)
    static func run<Result: FixedWidthInteger>(
        _ call: StaticString,
        _ body: () -> Result
    ) throws(HTTPServerError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw .system(call: "\(call)", errno: code)
        }
    }

    /// Sleeps the calling thread for `duration`, resuming after signals.
    static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// Closes a descriptor, ignoring errors: after `close`, even with EINTR, Linux has released it.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}

extension HTTPServerError {
    /// Whether this is a system error with one of these errno values.
    func hasErrno(_ codes: Int32...) -> Bool {
        if case .system(_, let code) = self { return codes.contains(code) }
        return false
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws `HTTPServerError` (the standard one only rethrows untyped).
    func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(HTTPServerError) -> Result
    ) throws(HTTPServerError) -> Result {
        let result = withUnsafeBytes { raw in Swift.Result { () throws(HTTPServerError) in try body(raw) } }
        return try result.get()
    }
}
