// Fuzz target for the Authorization header parser (RFC 9110 section 11.6.2, RFC 7617 Basic, RFC 6750 Bearer)
// and its Base64 decoder. Built by scripts/fuzz/run with the files in ./sources.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthorization(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Base64: whatever decodes encodes back to a text that decodes to the same bytes.
    if let decoded = Base64.decode(Substring(String(decoding: bytes, as: UTF8.self)).utf8) {
        if Base64.decode(Substring(Base64.encode(decoded)).utf8) != decoded { fatalError("base64 round trip differs") }
    }
    let value = String(decoding: bytes, as: UTF8.self)
    switch HTTPAuthorization.parse(value) {
    case .basic(let user, let password):
        if user.contains(":") { fatalError("a Basic user name with a colon") }
        let again = HTTPAuthorization.parse("Basic " + Base64.encode(Array("\(user):\(password)".utf8)))
        if again != .basic(user: user, password: password) { fatalError("Basic credentials do not round-trip") }
    case .bearer(let token):
        if token.isEmpty || token.contains(" ") { fatalError("a Bearer token with a space") }
    case .other(let scheme):
        if scheme.isEmpty || scheme != scheme.lowercased() { fatalError("an unnamed or unfolded scheme") }
    case .malformed:
        break
    }
    var headers = HTTPHeaders()
    headers.add("Authorization", value)
    if HTTPAuthorization.parse(headers) != HTTPAuthorization.parse(value) { fatalError("one field parses differently") }
    return 0
}
