#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A job's job-password (PWG 5100.11) kept in its folder while the job waits for it, so that a printer started
/// again can still release the job with it: `.job-password`, readable by the printer's user only. Never in the
/// record (which the API shows) and never served (the files route refuses names that begin with a dot); removed
/// when the password released the job, and with the folder.
enum JobPasswordFile {
    static let name = ".job-password"
    /// The most bytes read back: the longest password or digest, hex, with its encryption keyword.
    static let maximumBytes = 4096

    /// Writes the password as it is compared (the octets sent, or their digest for sha2-256) and its encryption,
    /// `encryption` on the first line and the hex of the octets on the second.
    static func save(_ password: [UInt8], encryption: String, folder: String) throws(DocumentError) {
        let path = "\(folder)/\(name)"
        let text = encryption + "\n" + password.map { hex($0) }.joined() + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage(path: path, errno: errno) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else { throw .storage(path: path, errno: errno) }
    }

    /// The password and encryption kept in a job's folder; nil when there is none, or it does not read.
    static func load(folder: String) -> (password: [UInt8], encryption: String)? {
        let descriptor = open("\(folder)/\(name)", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n")
        guard lines.count == 2, lines[1].count % 2 == 0 else { return nil }
        var password: [UInt8] = []
        var digits = lines[1][...]
        while !digits.isEmpty {
            guard let byte = UInt8(digits.prefix(2), radix: 16) else { return nil }
            password.append(byte)
            digits = digits.dropFirst(2)
        }
        return (password, String(lines[0]))
    }

    static func remove(folder: String) {
        unlink("\(folder)/\(name)")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
