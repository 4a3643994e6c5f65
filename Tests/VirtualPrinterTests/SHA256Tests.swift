import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// SHA256 (FIPS 180-4) against published vectors and against the system's sha256sum.
@Suite(.timeLimit(.minutes(1))) struct SHA256Tests {
    func digest(_ text: String) -> String {
        var hash = SHA256()
        hash.update(Array(text.utf8))
        return hash.hexDigest()
    }

    @Test func emptyInputMatchesTheKnownVector() {
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abcMatchesTheFIPSVector() {
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessageMatchesTheFIPSVector() {
        #expect(
            digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func oneMillionAsMatchesTheFIPSVector() {
        var hash = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.update(chunk) }
        #expect(hash.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundariesMatchSha256sum() throws {
        // 55, 56 and 64 bytes cross the one-block/two-block padding boundary.
        for length in [55, 56, 63, 64, 65, 119, 120] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            var hash = SHA256()
            hash.update(bytes)
            let expected = try sha256sum(bytes)
            #expect(hash.hexDigest() == expected, "length \(length)")
        }
    }

    @Test func oddSizedChunksGiveTheSameDigestAsSha256sum() throws {
        var generator = SplitMix(seed: 42)
        let bytes = (0..<300_001).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let expected = try sha256sum(bytes)
        for chunkSizes in [[1], [3, 61, 64, 65], [7919], [1, 127, 4096, 13]] {
            var hash = SHA256()
            var offset = 0
            var index = 0
            while offset < bytes.count {
                let size = min(chunkSizes[index % chunkSizes.count], bytes.count - offset)
                bytes[offset..<offset + size].withUnsafeBytes { hash.update($0) }
                offset += size
                index += 1
            }
            #expect(hash.hexDigest() == expected, "chunks \(chunkSizes)")
        }
    }

    @Test func hexDigestCanBeReadTwiceAndUpdatingContinues() {
        var hash = SHA256()
        hash.update(Array("ab".utf8))
        let first = hash.hexDigest()
        #expect(hash.hexDigest() == first)
        hash.update(Array("c".utf8))
        #expect(hash.hexDigest() == digest("abc"))
    }

    /// The digest `sha256sum` prints for the bytes, fed through a file.
    func sha256sum(_ bytes: [UInt8]) throws -> String {
        let folder = try TemporaryFolder()
        let path = folder.path + "/data.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let output = try runTool("/usr/bin/sha256sum", [path])
        return String(decoding: output.prefix(64), as: UTF8.self)
    }
}

/// A small deterministic generator for test data (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
