import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// JobIDAllocator: ids continue after the folders already recorded, and are unique under concurrency.
@Suite struct JobIDAllocatorTests {
    @Test func anEmptyOrMissingOutputFolderStartsAtOne() throws {
        let folder = try TemporaryFolder()
        #expect(JobIDAllocator(outputDirectory: folder.path).allocate() == 1)
        #expect(JobIDAllocator(outputDirectory: folder.path + "/missing").allocate() == 1)
    }

    @Test func idsContinueAfterTheHighestNumberedJobFolder() throws {
        let folder = try TemporaryFolder()
        for name in ["1", "7", "3", "notes", "0", "-4", "12x"] {
            try FileManager.default.createDirectory(
                atPath: "\(folder.path)/jobs/\(name)", withIntermediateDirectories: true)
        }
        let allocator = JobIDAllocator(outputDirectory: folder.path)
        #expect(allocator.allocate() == 8)
        #expect(allocator.allocate() == 9)
    }

    @Test func aFolderAKilledRunWasStillMakingCountsToo() throws {
        let folder = try TemporaryFolder()
        for name in ["3", ".new-5", ".new-x", ".write-test-9"] {
            try FileManager.default.createDirectory(
                atPath: "\(folder.path)/jobs/\(name)", withIntermediateDirectories: true)
        }
        let allocator = JobIDAllocator(outputDirectory: folder.path)
        #expect(allocator.first == 6)
        #expect(allocator.allocate() == 6)
    }

    @Test func concurrentAllocationsNeverRepeatAnID() async throws {
        let folder = try TemporaryFolder()
        let allocator = JobIDAllocator(outputDirectory: folder.path)
        let ids = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<250).map { _ in allocator.allocate() } }
            }
            var all: [Int] = []
            for await part in group { all += part }
            return all
        }
        #expect(ids.count == 2000)
        #expect(Set(ids) == Set(1...2000))
    }
}
