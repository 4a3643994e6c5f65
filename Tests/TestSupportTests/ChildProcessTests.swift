import Foundation
import TestSupport
import Testing

/// ChildProcess: what keeps a test from hanging on a program it starts.
@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
    @Test func aChildGetsNoDescriptorOfTheTestProcessButItsStandardStreams() throws {
        // A pipe of this process that is not close-on-exec, as Foundation's Pipe makes them.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        // /proc/self/fd of the shell itself: 0, 1, 2, and the descriptor ls reads the folder with.
        let listing = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
        #expect(listing.status == 0)
        let descriptors = listing.outputText.split(separator: "\n").compactMap { Int32($0) }
        #expect(!descriptors.contains(ends[0]) && !descriptors.contains(ends[1]), "\(descriptors)")
        #expect(descriptors.filter { $0 > 2 }.count <= 1, "\(descriptors)")
    }

    @Test func aChildThatRunsPastItsLimitIsKilledAndTheCallNamesIt() throws {
        let started = ContinuousClock.now
        let failure = #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.run("/bin/sleep", ["30"], limit: 1)
        }
        #expect(failure?.description.contains("/bin/sleep 30 ran longer than 1.0 s") == true)
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func outputLargerThanAPipeHoldsIsReadWhole() throws {
        // 1 MiB on stdout and on stderr: a child writing into an undrained pipe would never exit.
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"])
        #expect(result.status == 0)
        #expect(result.output.count == 1_048_576)
        #expect(result.errorOutput.utf8.count == 1_048_576)
    }

    @Test func inputIsGivenWholeAndTheExitStatusOfASignalIs128Plus() throws {
        let echoed = try ChildProcess.run("/bin/cat", [], input: Array("hello".utf8))
        #expect(echoed.outputText == "hello")
        let killed = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(killed.status == 128 + SIGTERM)
    }
}
