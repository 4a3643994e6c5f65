import Foundation
import PrintModel

/// What lies on a scanner's glass and in its feeder instead of the generated test chart (docs/scanning.md "What
/// is scanned"): a PDF, whose pages come one an image; a PNG or JPEG image, scanned for every image; or a folder of
/// such files, taken in name order, one page each (a PDF's first). The pages repeat as a stack fed again: image 4
/// of a job over three pages shows the first.
public struct ScanSourceFiles: Sendable, Equatable {
    /// The formats a source may be in.
    public static let formats: Set<DocumentFormat> = [.pdf, .png, .jpeg]
    /// The most files of a folder taken.
    public static let maximumFolderFiles = 1000

    /// The file or folder given.
    public let path: String
    /// The files, in the order they are scanned; one for a file source.
    public let files: [String]
    /// Whether `path` is a folder.
    public let isFolder: Bool

    /// Opens a source file or folder, checking that each file is a PDF, PNG or JPEG by its bytes (the one format
    /// detector's). Files of a folder in another format, hidden files and subfolders are left out; a folder with
    /// none left is an error.
    public static func open(_ path: String) throws(ScanSourceError) -> ScanSourceFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScanSourceError("the scan source \(path) does not exist")
        }
        guard isDirectory.boolValue else {
            guard let format = format(of: path) else {
                throw ScanSourceError("the scan source \(path) cannot be read")
            }
            guard formats.contains(format) else {
                throw ScanSourceError("the scan source \(path) is \(format.rawValue), not a PDF, PNG or JPEG file")
            }
            return ScanSourceFiles(path: path, files: [path], isFolder: false)
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw ScanSourceError("the scan source folder \(path) cannot be read")
        }
        let files = names.filter { !$0.hasPrefix(".") }.sorted().lazy.map { "\(path)/\($0)" }.filter { file in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
                && format(of: file).map(formats.contains) == true
        }.prefix(maximumFolderFiles)
        guard !files.isEmpty else {
            throw ScanSourceError("the scan source folder \(path) holds no PDF, PNG or JPEG file")
        }
        return ScanSourceFiles(path: path, files: Array(files), isFolder: true)
    }

    /// The file and page (from 1) that image `number` (from 1) of a scan job shows: page `number` of a PDF file
    /// source (the render worker repeats its pages), file `number` of a folder's.
    public func page(ofImage number: Int) -> (path: String, page: Int) {
        guard isFolder else { return (files[0], max(1, number)) }
        return (files[(max(1, number) - 1) % files.count], 1)
    }

    /// The format of a file by its first bytes; nil when it cannot be read or is in no format vprinter knows.
    private static func format(of path: String) -> DocumentFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let prefix = try? handle.read(upToCount: DocumentFormat.detectionLength) else { return nil }
        return DocumentFormat.detect(prefix)
    }
}

/// Why a scan source cannot be used, as a person reads it.
public struct ScanSourceError: Error, Sendable, Equatable {
    public var message: String
    /// True when the source was refused for its size alone (the API answers 413).
    public var isTooLarge = false

    public init(_ message: String, isTooLarge: Bool = false) {
        self.message = message
        self.isTooLarge = isTooLarge
    }
}
