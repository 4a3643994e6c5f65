import Foundation
import Testing

@testable import PrinterCore

/// FleetShard: `INDEX/COUNT` as a process is told its slice (a StatefulSet pod by its own name), which printers
/// of the list are its, and job-ids that no two slices share.
@Suite struct FleetShardTests {
    @Test(arguments: [("0/1", 0, 1), ("2/3", 2, 3), ("vprinter-2/3", 2, 3), ("fleet-west-10/12", 10, 12)])
    func aSliceIsReadFromItsIndexOrAPodName(text: String, index: Int, count: Int) throws {
        let shard = try #require(FleetShard(text))
        #expect((shard.index, shard.count) == (index, count))
        #expect(shard.description == "\(index)/\(count)")
    }

    @Test(arguments: [
        "", "3", "3/3", "4/3", "-1/3", "1/0", "a/3", "vprinter2/3", "vprinter-/3", "1/3/4", "1/10001",
        "9999999999/3", " 1/3",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(FleetShard(text) == nil)
    }

    @Test func everyPrinterOfTheListBelongsToExactlyOneSlice() throws {
        let slices = try (0..<3).map { try #require(FleetShard("\($0)/3")) }
        for position in 0..<100 {
            #expect(slices.filter { $0.holds(position: position) }.map(\.index) == [position % 3])
        }
        #expect(FleetShard.whole.holds(position: 41))
    }

    @Test func noTwoSlicesHandOutTheSameJobID() throws {
        let folder = try TemporaryFolder()
        // An earlier run of slice 1 left job 5; the whole fleet's job-ids after it stay apart.
        try FileManager.default.createDirectory(atPath: "\(folder.path)/jobs/5", withIntermediateDirectories: true)
        var handedOut: [Int: Int] = [:]
        for index in 0..<3 {
            let shard = try #require(FleetShard("\(index)/3"))
            let allocator = JobIDAllocator(outputDirectory: folder.path, shard: shard)
            #expect(allocator.first > 5)
            for _ in 0..<50 {
                let id = allocator.allocate()
                #expect(shard.owns(jobID: id))
                #expect(handedOut[id] == nil, "job-id \(id) handed out by slices \(handedOut[id] ?? -1) and \(index)")
                handedOut[id] = index
            }
        }
        #expect(try #require(FleetShard("0/3")).firstJobID(above: 5) == 7)
        #expect(try #require(FleetShard("2/3")).firstJobID(above: 0) == 3)
        #expect(FleetShard.whole.firstJobID(above: 5) == 6)
    }
}
