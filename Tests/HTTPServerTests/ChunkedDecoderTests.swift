import Testing

@testable import HTTPServer

/// Decodes `text` fed in pieces of `step` bytes into outputs of `outputSize` bytes.
private func decode(
    _ text: String, step: Int = .max, outputSize: Int = 1024, maximumBodyBytes: Int = 1 << 20
) throws(HTTPServerError) -> (body: String, finished: Bool, rest: Int) {
    var decoder = ChunkedDecoder(maximumBodyBytes: maximumBodyBytes)
    let input = Array(text.utf8)
    var body: [UInt8] = []
    var offset = 0
    var output = [UInt8](repeating: 0, count: outputSize)
    while offset < input.count && !decoder.isFinished {
        let end = min(input.count, offset + step)
        let result = input[offset..<end].withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                Result { () throws(HTTPServerError) in try decoder.decode(source, into: destination) }
            }
        }
        let (consumed, produced) = try result.get()
        body += output[0..<produced]
        offset += consumed
    }
    return (String(decoding: body, as: UTF8.self), decoder.isFinished, input.count - offset)
}

private let sample = "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\nGET /next"

@Test func decodesChunksWithExtensionsAndTrailers() throws {
    let result = try decode(sample)
    #expect(result.body == "hello, world")
    #expect(result.finished)
    #expect(result.rest == "GET /next".utf8.count)
}

@Test func decodesTheSameWhenFedOneByteAtATime() throws {
    let result = try decode(sample, step: 1, outputSize: 1)
    #expect(result.body == "hello, world")
    #expect(result.rest == "GET /next".utf8.count)
}

@Test func acceptsBareLineFeeds() throws {
    #expect(try decode("3\nabc\n0\n\n").body == "abc")
}

@Test func malformedChunkingIsBadChunk() {
    for bad in ["x\r\n", "\r\n", "3\r\nabcX", "3\r\nabc\rX", "3\rX", "0\r\nTrailer\rX", "0\r\n\rX", "3;\u{1}\r\n"] {
        #expect(throws: HTTPServerError.badChunk, "\(bad.debugDescription)") { try decode(bad) }
    }
}

@Test func sizeDigitsLimitIsCrossedAtOneMoreDigit() throws {
    let digits = String(repeating: "0", count: ChunkedDecoder.maximumSizeDigits)
    #expect(try decode(digits + "\r\n\r\n").finished)
    #expect(throws: HTTPServerError.badChunk) { try decode("0" + digits + "\r\n\r\n") }
}

@Test func extensionLengthLimitIsCrossedAtOneMoreByte() throws {
    let longest = ";" + String(repeating: "e", count: ChunkedDecoder.maximumLineBytes - 1)
    #expect(try decode("1" + longest + "\r\na\r\n0\r\n\r\n").body == "a")
    #expect(throws: HTTPServerError.badChunk) { try decode("1" + longest + "e\r\na\r\n0\r\n\r\n") }
}

@Test func trailerLengthLimitIsCrossedAtOneMoreByte() throws {
    let longest = String(repeating: "t", count: ChunkedDecoder.maximumLineBytes)
    #expect(try decode("0\r\n" + longest + "\r\n\r\n").finished)
    #expect(throws: HTTPServerError.badChunk) { try decode("0\r\n" + longest + "t\r\n\r\n") }
}

@Test func bodyLimitIsCrossedAtOneMoreByte() throws {
    #expect(try decode("4\r\nabcd\r\n0\r\n\r\n", maximumBodyBytes: 4).body == "abcd")
    #expect(throws: HTTPServerError.bodyTooLarge) {
        try decode("4\r\nabcd\r\n1\r\ne\r\n0\r\n\r\n", maximumBodyBytes: 4)
    }
}
