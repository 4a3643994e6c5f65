import Testing

@testable import HTTPServer

@Test func memoryBodyReadsInPiecesThenEnds() throws {
    var body = HTTPRequestBody(bytes: Array("hello world".utf8))
    #expect(try body.read(maximum: 5) == Array("hello".utf8))
    let completeAfterFirstRead = body.isComplete
    #expect(!completeAfterFirstRead)
    #expect(try body.read(maximum: 100) == Array(" world".utf8))
    let completeAfterSecondRead = body.isComplete
    #expect(completeAfterSecondRead)
    #expect(try body.read(maximum: 100).isEmpty)
}

@Test func readAllLimitIsCrossedAtOneMoreByteAndTheErrorSticks() throws {
    var fits = HTTPRequestBody(bytes: [1, 2, 3])
    #expect(try fits.readAll(maximum: 3) == [1, 2, 3])
    var tooLong = HTTPRequestBody(bytes: [1, 2, 3, 4])
    #expect(throws: HTTPServerError.bodyTooLarge) { try tooLong.readAll(maximum: 3) }
    #expect(throws: HTTPServerError.bodyTooLarge) { try tooLong.read(maximum: 1) }
}
