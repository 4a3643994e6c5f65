// Fuzz target for how a connection on a TLS port is told apart: the first bytes (TLS ClientHello or HTTP), and
// for HTTP the request head's Upgrade to TLS (RFC 2817). Built by scripts/fuzz/run with the files in ./sources.

private let fuzzLimits = HTTPServerLimits(maximumHeadBytes: 4096, maximumHeaderCount: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let guess = TransportDetection.classify(input)
    switch guess {
    case nil:
        if size != 0 { fatalError("bytes classified as nothing") }
    case .tls?:
        if input[0] != TransportDetection.handshakeRecordType { fatalError("TLS without a handshake record type") }
        if size > 1 && input[1] != TransportDetection.recordMajorVersion { fatalError("TLS with a wrong version") }
    case .http?:
        if size > 1 && input[0] == 0x16 && input[1] == 0x03 { fatalError("a ClientHello taken for HTTP") }
    }
    // Deciding on a prefix never contradicts deciding on the whole (the server peeks at most prefixLength bytes).
    for length in 1..<max(1, min(size, TransportDetection.prefixLength) + 1) {
        let early = TransportDetection.classify(UnsafeRawBufferPointer(rebasing: input[0..<length]))
        if early == .http && guess == .tls { fatalError("a prefix said HTTP, the whole said TLS") }
    }
    guard guess == .http else { return 0 }
    var parser = HTTPRequestParser(limits: fuzzLimits)
    guard let parsed = try? parser.parse(input) else { return 0 }
    let head = parsed.head
    let upgrade = HTTPUpgrade.requestsTLS(head.headers)
    if upgrade && !head.headers.listContains("Connection", token: "upgrade") {
        fatalError("an upgrade without Connection: upgrade")
    }
    if upgrade && !head.headers.contains("Upgrade") { fatalError("an upgrade without an Upgrade field") }
    return 0
}
