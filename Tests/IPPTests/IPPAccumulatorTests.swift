import IPP
import Testing

/// `IPPMessageAccumulator`: a message arriving in pieces, as HTTP bodies do.
struct IPPAccumulatorTests {
    private let message = SampleMessages.everySyntaxRequest

    @Test func messageFedOneByteAtATimeCompletesOnItsLastByte() throws {
        let bytes = IPPEncoder.encode(message)
        var accumulator = IPPMessageAccumulator()
        for byte in bytes.dropLast() {
            #expect(try accumulator.append([byte]) == nil)
        }
        let result = try #require(try accumulator.append([bytes[bytes.count - 1]]))
        #expect(result.message == message)
        #expect(result.remainder.isEmpty)
        #expect(accumulator.count == bytes.count)
    }

    @Test(arguments: [1, 7, 64, 1000])
    func documentDataInTheSameChunksIsHandedBack(chunkSize: Int) throws {
        let document = Array("%PDF-1.7 body".utf8)
        let bytes = IPPEncoder.encode(message) + document
        var accumulator = IPPMessageAccumulator()
        var start = 0
        while start < bytes.count {
            let chunk = bytes[start..<min(bytes.count, start + chunkSize)]
            start += chunkSize
            if let result = try accumulator.append(chunk) {
                #expect(result.message == message)
                // The remainder is what arrived after end-of-attributes, up to the end of this chunk.
                #expect(Array(result.remainder) == Array(document.prefix(result.remainder.count)))
                #expect(IPPEncoder.encode(message).count + result.remainder.count == min(bytes.count, start))
                return
            }
        }
        Issue.record("the message never completed")
    }

    @Test func finishOnAnIncompleteMessageIsTruncated() throws {
        let bytes = IPPEncoder.encode(message)
        var accumulator = IPPMessageAccumulator()
        #expect(try accumulator.append(bytes.prefix(20)) == nil)
        #expect(throws: IPPDecodingError.truncated(offset: 20)) { try accumulator.finish() }
    }

    @Test func finishOnACompleteMessageReturnsIt() throws {
        var accumulator = IPPMessageAccumulator()
        _ = try accumulator.append(IPPEncoder.encode(message) + [1, 2, 3])
        let result = try accumulator.finish()
        #expect(result.message == message)
        #expect(Array(result.remainder) == [1, 2, 3])
    }

    @Test func malformedBytesFailAtOnceWithoutWaitingForMore() {
        var accumulator = IPPMessageAccumulator()
        #expect(throws: IPPDecodingError.invalidTag(IPPTag(rawValue: 0), offset: 8)) {
            try accumulator.append(WireBytes().tag(IPPTag(rawValue: 0)).bytes)
        }
    }

    @Test func messageThatNeverEndsIsRefusedOnceItPassesTheByteLimit() throws {
        let limits = IPPLimits(maximumMessageBytes: 200)
        var accumulator = IPPMessageAccumulator(limits: limits)
        var held = WireBytes().tag(.operationAttributes).bytes.count
        #expect(try accumulator.append(WireBytes().tag(.operationAttributes).bytes) == nil)
        let value = WireBytes(raw: []).value(.keyword, "k", "abcdefgh").bytes
        var refused: IPPDecodingError?
        for _ in 0..<100 {
            do {
                #expect(try accumulator.append(value) == nil)
            } catch {
                refused = error
                break
            }
            held += value.count
        }
        #expect(refused == .messageTooLarge(limit: 200))
        #expect(held <= 200)
        #expect(accumulator.count <= 200 + value.count)
    }
}
