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

    /// Writes a log line to stderr, its control characters escaped: text from clients (a job name with a line
    /// break, an escape sequence) can neither forge a line of its own nor drive the reader's terminal.
    static func log(_ line: String) {
        write("vprinter: " + escaped(line) + "\n", to: STDERR_FILENO)
    }

    /// The text with each control character (C0, DEL, C1) written as `\n`, `\r`, `\t` or `\u{XX}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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
