#if canImport(Glibc)
    import Glibc
#endif

/// Standard output (the URI lines, command results) and standard error (logs), written whole with write(2)
/// so that a reader of the pipe sees each line at once.
enum Console {
    /// Writes a line to stdout.
    static func out(_ line: String, terminator: String = "\n") {
        write(line + terminator, to: STDOUT_FILENO)
    }

    /// Writes a log line to stderr.
    static func log(_ line: String) {
        write("vprinter: " + line + "\n", to: STDERR_FILENO)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
