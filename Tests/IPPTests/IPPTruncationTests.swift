import IPP
import Testing

/// The goipp treatment: every strict prefix of a valid message is `.truncated`, and damaged bytes give a
/// clean error or a value, never a trap.
struct IPPTruncationTests {
    /// The sample encodings and the CUPS captures, each with a name.
    static var validMessages: [(name: String, bytes: [UInt8])] {
        SampleMessages.encodings + WireCapture.all.map { ($0.name, $0.attributeBytes) }
    }

    @Test(arguments: validMessages.map(\.name))
    func everyStrictPrefixIsTruncated(name: String) throws {
        let bytes = try #require(Self.validMessages.first { $0.name == name }?.bytes)
        #expect(decodingError(bytes) == nil)
        var failures = 0
        for length in 0..<bytes.count {
            let error = decodingError(Array(bytes[..<length]))
            guard case .truncated(let offset) = error, offset == length else {
                failures += 1
                if failures <= 3 { Issue.record("prefix of \(length) bytes gave \(String(describing: error))") }
                continue
            }
        }
        #expect(failures == 0)
    }

    /// A small deterministic generator (xorshift), so that a failing mutation can be replayed.
    private struct Xorshift {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Decodes `bytes` and, on success, checks that the re-encoding decodes to an equal message.
    private func decodeNeverTrapsAndStaysStable(_ bytes: [UInt8]) -> Bool {
        guard let message = decoded(bytes) else { return true }
        return decoded(IPPEncoder.encode(message)) == message
    }

    @Test(arguments: validMessages.map(\.name))
    func everySingleByteFlipGivesAnErrorOrAStableMessage(name: String) throws {
        let bytes = try #require(Self.validMessages.first { $0.name == name }?.bytes)
        var unstable: [Int] = []
        for index in bytes.indices {
            for replacement in [bytes[index] ^ 0xFF, bytes[index] ^ 0x01, 0x00, 0x7F] as [UInt8] {
                var mutated = bytes
                mutated[index] = replacement
                if !decodeNeverTrapsAndStaysStable(mutated) { unstable.append(index) }
            }
        }
        #expect(unstable.isEmpty, "re-encoding changed the message after a flip at \(unstable.prefix(5))")
    }

    @Test(arguments: validMessages.map(\.name))
    func randomInsertionsDeletionsAndSplicesGiveAnErrorOrAStableMessage(name: String) throws {
        let bytes = try #require(Self.validMessages.first { $0.name == name }?.bytes)
        var random = Xorshift(state: 0x9E37_79B9_7F4A_7C15)
        var decodedCount = 0
        for _ in 0..<2000 {
            var mutated = bytes
            for _ in 0...random.below(3) {
                let index = random.below(mutated.count)
                switch random.below(4) {
                case 0: mutated.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                case 1: mutated.remove(at: index)
                case 2: mutated[index] = UInt8(truncatingIfNeeded: random.next())
                default:
                    let end = min(mutated.count, index + random.below(16))
                    mutated.insert(contentsOf: Array(mutated[index..<end]), at: random.below(mutated.count))
                }
                if mutated.isEmpty { break }
            }
            if decoded(mutated) != nil { decodedCount += 1 }
            #expect(decodeNeverTrapsAndStaysStable(mutated))
        }
        // Some mutations land in values and still decode; a decoder refusing everything would be broken.
        #expect(decodedCount > 0)
    }

    @Test func every16BitFieldSetToFFFFGivesAnErrorOrAStableMessage() throws {
        let bytes = IPPEncoder.encode(SampleMessages.everySyntaxRequest)
        for index in 8..<(bytes.count - 1) {
            var mutated = bytes
            mutated[index] = 0xFF
            mutated[index + 1] = 0xFF
            #expect(decodeNeverTrapsAndStaysStable(mutated))
        }
    }
}
