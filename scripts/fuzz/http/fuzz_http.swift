// Fuzz target for the pure parts of HTTPServer: the incremental request-head parser, the request-target
// and framing rules, and the chunked decoder. Built by scripts/fuzz/run with the files in ./sources.

/// Small limits so that the fuzzer reaches every limit quickly.
private let fuzzLimits = HTTPServerLimits(maximumHeadBytes: 2048, maximumHeaderCount: 16, maximumBodyBytes: 4096)

/// Parses the head in one piece, then again split at a point chosen by the input, and checks that both
/// agree; then interprets the head and decodes what follows as a chunked body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var whole = HTTPRequestParser(limits: fuzzLimits)
    let wholeResult = Result { () throws(HTTPServerError) in try whole.parse(input) }

    let split = size == 0 ? 0 : Int(input[0]) % (size + 1)
    var pieces = HTTPRequestParser(limits: fuzzLimits)
    let splitResult = Result { () throws(HTTPServerError) -> (head: HTTPRequestHead, length: Int)? in
        if let early = try pieces.parse(UnsafeRawBufferPointer(rebasing: input[0..<split])) { return early }
        return try pieces.parse(input)
    }
    switch (wholeResult, splitResult) {
    case (.success(let a), .success(let b)):
        if a?.length != b?.length || a?.head.headers.count != b?.head.headers.count || a?.head.target != b?.head.target
        {
            fatalError("split parse disagrees with whole parse")
        }
    case (.failure(let a), .failure(let b)):
        if a != b { fatalError("split parse fails differently: \(a) vs \(b)") }
    default:
        fatalError("split parse and whole parse disagree on success")
    }

    var bodyStart = 0
    if case .success(let parsed?) = wholeResult {
        bodyStart = parsed.length
        let head = parsed.head
        if let target = try? RequestTarget.parse(head.target, method: head.method) {
            _ = try? head.authority(target: target)
        }
        _ = try? head.bodyFraming(maximumBodyBytes: fuzzLimits.maximumBodyBytes)
        _ = try? head.expectsContinue()
        _ = head.wantsKeepAlive
    }
    decodeChunked(UnsafeRawBufferPointer(rebasing: input[bodyStart...]))
    return 0
}

/// Decodes bytes as a chunked body into a small output buffer, checking the decoder's accounting.
private func decodeChunked(_ body: UnsafeRawBufferPointer) {
    var decoder = ChunkedDecoder(maximumBodyBytes: fuzzLimits.maximumBodyBytes)
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 1)
    defer { output.deallocate() }
    var offset = 0
    var produced = 0
    while offset < body.count && !decoder.isFinished {
        guard
            let (consumed, count) = try? decoder.decode(UnsafeRawBufferPointer(rebasing: body[offset...]), into: output)
        else { return }
        if consumed > body.count - offset || count > output.count { fatalError("decoder overran its buffers") }
        if consumed == 0 && count == 0 { fatalError("decoder made no progress") }
        offset += consumed
        produced += count
    }
    if produced > fuzzLimits.maximumBodyBytes { fatalError("decoder exceeded the body limit") }
}
