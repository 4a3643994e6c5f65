/// What can go wrong while reading, comparing or writing page images.
public enum ImageCheckError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file could not be read or decoded; `message` is libpng's own or the system's.
    case unreadable(path: String, message: String)
    /// A file could not be written.
    case unwritable(path: String, message: String)
    /// An image is larger than ``RGBImage/maximumPixels``.
    case tooLarge(path: String, width: Int, height: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read \(path): \(message)"
        case .unwritable(let path, let message): "cannot write \(path): \(message)"
        case .tooLarge(let path, let width, let height):
            "\(path) is \(width) x \(height) pixels, more than the \(RGBImage.maximumPixels) an image may have"
        }
    }
}
