// Fuzz target for the IPP codec (built by scripts/fuzz/run with -sanitize=fuzzer,address together with the
// files listed in `sources`, so the IPP types are in this module and need no import).

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes the input; a decoded message must re-encode to bytes that decode to an equal message, and the
/// incremental accumulator must agree with the one-shot decoder. A thrown IPPDecodingError is the expected
/// answer to bad bytes; a crash, a sanitizer report, or a broken invariant (`abort()`) is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = IPPLimits(maximumValueCount: 1000, maximumMessageBytes: 64 * 1024)
    let decoder = IPPDecoder(limits: limits)
    let direct = Result { () throws(IPPDecodingError) in try decoder.decode(bytes) }
    checkAccumulator(bytes, limits: limits, agreesWith: direct)
    guard case .success(let (message, _)) = direct else { return 0 }

    let reEncoded = IPPEncoder.encode(message)
    switch Result(catching: { () throws(IPPDecodingError) in try decoder.decode(reEncoded) }) {
    case .success(let (again, dataOffset)):
        if again != message || dataOffset != reEncoded.count {
            fail("re-encoded message decodes differently")
        }
    case .failure(let error):
        // Decoding repairs invalid UTF-8 with U+FFFD (three bytes for one), so a repaired string may grow past
        // its length limit when re-encoded. Any other failure means the encoder wrote what the decoder refuses.
        if !message.containsRepairedText {
            fail("re-encoded message does not decode: \(error)")
        }
    }
    return 0
}

/// Feeds the bytes to an IPPMessageAccumulator in two chunks and checks it finds what the decoder found.
private func checkAccumulator(
    _ bytes: [UInt8], limits: IPPLimits,
    agreesWith direct: Result<(message: IPPMessage, dataOffset: Int), IPPDecodingError>
) {
    var accumulator = IPPMessageAccumulator(limits: limits)
    let split = bytes.count / 2
    let incremental = Result { () throws(IPPDecodingError) -> IPPMessage in
        if let (message, _) = try accumulator.append(bytes[..<split]) { return message }
        if let (message, _) = try accumulator.append(bytes[split...]) { return message }
        return try accumulator.finish().message
    }
    switch (direct, incremental) {
    case (.success(let (message, _)), .success(let found)):
        if message != found { fail("accumulator decoded another message") }
    case (.failure, .failure):
        // Errors may differ: a value that runs past both the first chunk and the byte limit is messageTooLarge
        // there, while the whole input may show another problem first.
        break
    default:
        fail("accumulator and decoder disagree: \(direct) versus \(incremental)")
    }
}

/// Reports a broken invariant on standard error and stops the fuzzer, which saves the input as a crash.
/// (Run with SWIFT_BACKTRACE=enable=no: Swift's crash handler and AddressSanitizer both catch the abort.)
private func fail(_ reason: String) -> Never {
    let line = Array("fuzz_ipp: \(reason)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

extension IPPMessage {
    /// True when some name or string value holds U+FFFD, the decoder's replacement for invalid UTF-8.
    fileprivate var containsRepairedText: Bool {
        groups.contains { group in group.attributes.contains(where: \.containsRepairedText) }
    }
}

extension IPPAttribute {
    fileprivate var containsRepairedText: Bool {
        name.unicodeScalars.contains("\u{FFFD}") || values.contains(where: \.containsRepairedText)
    }
}

extension IPPValue {
    fileprivate var containsRepairedText: Bool {
        switch self {
        case .textWithLanguage(let language, let text), .nameWithLanguage(let language, let text):
            (language + text).unicodeScalars.contains("\u{FFFD}")
        case .collection(let members):
            members.contains(where: \.containsRepairedText)
        default:
            stringValue?.unicodeScalars.contains("\u{FFFD}") ?? false
        }
    }
}
