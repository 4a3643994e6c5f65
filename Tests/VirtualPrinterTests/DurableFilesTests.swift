import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

#if canImport(Glibc)
    import Glibc
#endif

/// DurableFiles: a file replaced through a temporary file is, at every moment, the old one or the new one whole;
/// a replace that fails (disk full, the name taken by a folder) keeps the old file and leaves no temporary file;
/// syncing what is not there is an error naming the path.
@Suite(.timeLimit(.minutes(1))) struct DurableFilesTests {
    /// A device that answers every write with ENOSPC: a temporary file that is a link to it behaves like a disk
    /// that fills up while the file is written.
    static let fullDevice = "/dev/full"

    func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    @Test func aReplaceWritesTheNewBytesAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/job.json"
        try DurableFiles.replace(path, with: Array("a longer first version".utf8), through: path + ".tmp")
        try DurableFiles.replace(path, with: Array("second".utf8), through: path + ".tmp")
        #expect(contents(path) == Array("second".utf8), "the shorter version leaves nothing of the longer one")
        #expect(folder.contents() == ["job.json"])
    }

    /// A reader reads the file over and over while it is replaced over and over by contents of very different
    /// sizes. A write in place (truncate, then write) would let it see an empty file, a prefix of the long one, or
    /// the short one over the long one's tail; a replace must only ever show one of the two whole.
    @Test func aReaderNeverSeesATornFileWhileItIsReplacedOverAndOver() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/job.json"
        let short = [UInt8](repeating: UInt8(ascii: "s"), count: 16)
        let long = [UInt8](repeating: UInt8(ascii: "L"), count: 256 * 1024)
        try DurableFiles.replace(path, with: long, through: path + ".tmp")
        // Alternately the short and the long version, until stopped.
        let writer = BackgroundLoop { written in
            defer { written += 1 }
            do {
                try DurableFiles.replace(path, with: written % 2 == 0 ? short : long, through: path + ".tmp")
                return nil
            } catch {
                return "\(error)"
            }
        }
        var reads = 0
        var torn: [Int] = []
        var seen: Set<Int> = []
        let deadline = Date().addingTimeInterval(20)
        // Until both versions were read many times over (or the time is up, which fails below).
        while (reads < 2000 || seen.count < 2) && Date() < deadline && !writer.hasProblems {
            reads += 1
            guard let read = contents(path) else {
                torn.append(-1)
                continue
            }
            if read == short || read == long { seen.insert(read.count) } else { torn.append(read.count) }
        }
        let (writes, failures) = writer.stop()
        #expect(failures.first == nil)
        let tornReads = torn.count
        #expect(tornReads == 0, "of \(reads) reads; sizes seen \(Array(Set(torn)).sorted().prefix(5)), -1: no file")
        #expect(seen == [short.count, long.count], "both versions were read (\(reads) reads, \(writes) writes)")
        #expect(folder.contents() == ["job.json"])
    }

    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: fullDevice)))
    func aDiskThatFillsUpDuringTheWriteKeepsTheOldFileWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/job.json"
        try DurableFiles.replace(path, with: Array("old".utf8), through: path + ".tmp")
        #expect(symlink(Self.fullDevice, path + ".tmp") == 0)
        #expect(throws: DocumentError.storage(path: path + ".tmp", errno: ENOSPC)) {
            try DurableFiles.replace(path, with: Array("new".utf8), through: path + ".tmp")
        }
        #expect(contents(path) == Array("old".utf8))
        #expect(folder.contents() == ["job.json"], "the temporary file is removed")
    }

    @Test func aTemporaryFileThatCannotBeMadeKeepsTheOldFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/job.json"
        try DurableFiles.replace(path, with: Array("old".utf8), through: path + ".tmp")
        let temporary = folder.path + "/missing/job.json.tmp"
        #expect(throws: DocumentError.storage(path: temporary, errno: ENOENT)) {
            try DurableFiles.replace(path, with: Array("new".utf8), through: temporary)
        }
        #expect(contents(path) == Array("old".utf8))
    }

    @Test func aRenameThatFailsRemovesTheTemporaryFile() throws {
        let folder = try TemporaryFolder()
        // The name is taken by a folder that is not empty: the rename is refused.
        let path = folder.path + "/job.json"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: path + "/inside", contents: Data("x".utf8)))
        #expect(throws: DocumentError.storage(path: path, errno: EISDIR)) {
            try DurableFiles.replace(path, with: Array("new".utf8), through: path + ".tmp")
        }
        #expect(folder.contents() == ["job.json"])
        #expect(folder.contents(of: "job.json") == ["inside"])
    }

    @Test func syncingAFileAndItsFolderSucceedsAndWhatIsNotThereIsAnError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/job.json"
        try DurableFiles.replace(path, with: Array("{}".utf8), through: path + ".tmp")
        try DurableFiles.sync(file: path)
        try DurableFiles.sync(folder: folder.path)
        #expect(throws: DocumentError.storage(path: folder.path + "/gone", errno: ENOENT)) {
            try DurableFiles.sync(file: folder.path + "/gone")
        }
        #expect(throws: DocumentError.storage(path: path, errno: ENOTDIR)) {
            try DurableFiles.sync(folder: path)
        }
    }
}
