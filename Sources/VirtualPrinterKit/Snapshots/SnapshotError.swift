import PrinterCore
import PrinterHTTP

/// Why snapshot sides could not be compared or updated.
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path exists neither as a PNG file nor as a folder.
    case notFound(String)
    /// The path is a file but not a `.png` one.
    case notAPNG(String)
    /// A folder or file could not be read, made or written.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path) is neither a PNG file nor a folder"
        case .notAPNG(let path): "\(path) is not a .png file, a folder of PNG files or a job folder"
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }
}
