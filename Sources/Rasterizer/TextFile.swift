import Glibc

/// Writes a side's text file (`page-NNNN.txt`, UTF-8) under a temporary name and renames it when whole, so a text
/// file that exists is always complete.
enum TextFile {
    static func write(_ text: String, to path: String) throws(RasterError) {
        let partial = path + ".part"
        guard let file = fopen(partial, "wbe") else { throw .io(path: partial, operation: "create", errno: errno) }
        let bytes = Array(text.utf8)
        let written = bytes.isEmpty ? 0 : fwrite(bytes, 1, bytes.count, file)
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            let code = errno
            unlink(partial)
            throw .io(path: partial, operation: "write", errno: code)
        }
        guard rename(partial, path) == 0 else {
            let code = errno
            unlink(partial)
            throw .io(path: path, operation: "rename", errno: code)
        }
    }
}
