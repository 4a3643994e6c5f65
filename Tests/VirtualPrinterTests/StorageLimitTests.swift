import Foundation
import IPP
import PrintModel
import Synchronization
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Finite storage (docs/security.md "Storage"): jobs kept per printer with the unended ones counted, and the free
/// space the output folder's disk keeps. Before, held jobs piled up without end and a disk filled to the last byte.
@Suite(.timeLimit(.minutes(1))) struct StorageLimitTests {
    /// Free bytes a test sets, read by the floor as statvfs would be.
    final class FakeDisk: Sendable {
        let free = Atomic<Int>(1 << 40)
        var floor: DiskFloor {
            DiskFloor(path: "/", minimumFreeBytes: 256 << 20) { [self] _ in free.load(ordering: .relaxed) }
        }
    }

    func harness(maximumJobs: Int? = nil, disk: FakeDisk? = nil) throws -> PrinterHarness {
        try PrinterHarness { configuration in
            configuration.maximumJobs = maximumJobs
            configuration.diskFloor = disk?.floor
        }
    }

    func createJob(_ harness: PrinterHarness) throws -> IPPMessage {
        try harness.send(ippRequest(.createJob, [IPPAttribute("requesting-user-name", .name("alice"))]))
    }

    @Test func unendedJobsCountAgainstTheJobsKeptAndTheNextIsRefused() throws {
        let harness = try harness(maximumJobs: 2)
        #expect(try createJob(harness).status == .successfulOK)
        #expect(try createJob(harness).status == .successfulOK)
        // Two jobs wait for documents: neither ended, so neither may be pruned, and a third would pass the limit.
        let refused = try createJob(harness)
        #expect(refused.status == .serverErrorTooManyJobs)
        #expect(refused.statusMessage?.contains("--max-jobs") == true)
        #expect(harness.printer.jobs.count == 2)
        #expect(harness.folder.contents(of: "jobs").count == 2)
    }

    @Test func belowTheDiskFloorJobsAreRefusedWithSpoolAreaFullUntilThereIsRoom() throws {
        let disk = FakeDisk()
        let harness = try harness(disk: disk)
        #expect(try createJob(harness).status == .successfulOK)
        disk.free.store(100 << 20, ordering: .relaxed)
        let refused = try createJob(harness)
        #expect(refused.status == .serverErrorNotAcceptingJobs)
        #expect(refused.statusMessage?.contains("100 MiB free") == true)
        let attributes = try harness.send(
            ippRequest(
                .getPrinterAttributes,
                [
                    IPPAttribute(
                        name: "requested-attributes",
                        values: [.keyword("printer-state-reasons"), .keyword("printer-is-accepting-jobs")])
                ]))
        #expect(
            attributes.attribute("printer-state-reasons", in: .printerAttributes)?.values.contains(
                .keyword("spool-area-full")) == true)
        #expect(attributes.attribute("printer-is-accepting-jobs", in: .printerAttributes)?.value == .boolean(false))
        #expect(harness.folder.contents(of: "jobs").count == 1)
        disk.free.store(1 << 30, ordering: .relaxed)
        #expect(try createJob(harness).status == .successfulOK)
        #expect(!harness.printer.status.withLock { $0.reasons }.contains(.spoolAreaFull))
    }

    @Test func aDocumentThatBringsTheDiskBelowItsFloorIsDroppedWhole() throws {
        let folder = try TemporaryFolder()
        let disk = FakeDisk()
        let writer = DocumentWriter(
            folder: folder.path, number: 1, declaredFormat: .pdf, compression: "none", name: nil,
            maximumSize: 1 << 30, floor: disk.floor)
        let chunk = [UInt8](repeating: 0x25, count: 1 << 20)
        for _ in 0..<8 { try writer.write(chunk) }
        disk.free.store(10 << 20, ordering: .relaxed)
        var failure: DocumentError?
        do {
            for _ in 0..<(DiskFloor.checkInterval >> 20) { try writer.write(chunk) }
        } catch {
            failure = error
        }
        #expect(failure == .diskFull(free: 10 << 20, floor: 256 << 20))
        writer.discard()
        #expect(folder.contents().isEmpty)
    }
}
