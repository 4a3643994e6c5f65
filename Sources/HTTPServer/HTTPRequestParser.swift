/// A pure, incremental parser of HTTP/1.1 request heads (RFC 9112 sections 2 to 5).
///
/// Feed it the bytes buffered so far, always starting at the first byte of the head; it remembers how far it
/// scanned, so each byte is examined once however the head is split across reads. It fails early: the first
/// byte that cannot start a request (`notHTTP`), a control character (`malformedRequest`), too many lines
/// (`tooManyHeaders`) or too many bytes (`headTooLarge`) throw before the head is complete.
struct HTTPRequestParser: Sendable {
    private let maximumHeadBytes: Int
    private let maximumHeaderCount: Int
    /// Bytes examined so far.
    private var scanned = 0
    /// Bytes of the current line so far, its CR included.
    private var lineLength = 0
    /// Whether the previous byte was a CR.
    private var lastWasCR = false
    /// Non-empty lines completed so far (the request line and header fields).
    private var lineCount = 0
    /// Bytes of empty lines before the request line, which RFC 9112 section 2.2 lets a server ignore.
    private var leadingBytes = 0

    /// Creates a parser that enforces the head limits.
    init(limits: HTTPServerLimits) {
        maximumHeadBytes = limits.maximumHeadBytes
        maximumHeaderCount = limits.maximumHeaderCount
    }

    /// Forgets the previous head, ready for the next request on the connection.
    mutating func reset() {
        scanned = 0
        lineLength = 0
        lastWasCR = false
        lineCount = 0
        leadingBytes = 0
    }

    /// Scans newly arrived bytes; returns the head and the number of bytes it took once the empty line that
    /// ends it has arrived, or nil when more bytes are needed.
    mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPServerError) -> (
        head: HTTPRequestHead, length: Int
    )? {
        var index = scanned
        defer { scanned = index }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if index > maximumHeadBytes { throw .headTooLarge }
            if byte == ASCII.lf {
                let isEmpty = lineLength == 0 || (lineLength == 1 && lastWasCR)
                lineLength = 0
                lastWasCR = false
                if !isEmpty {
                    lineCount += 1
                    if lineCount - 1 > maximumHeaderCount { throw .tooManyHeaders }
                } else if lineCount == 0 {
                    leadingBytes = index
                } else {
                    let head = try Self.parseHead(UnsafeRawBufferPointer(rebasing: bytes[leadingBytes..<index]))
                    return (head, index)
                }
                continue
            }
            if lastWasCR { throw .malformedRequest(reason: "bare CR") }
            if lineCount == 0 && lineLength == 0 && byte != ASCII.cr && !ASCII.isTokenByte(byte) { throw .notHTTP }
            if byte != ASCII.cr && byte != ASCII.tab && (byte < 0x20 || byte == 0x7F) {
                throw .malformedRequest(reason: "control character in head")
            }
            lastWasCR = byte == ASCII.cr
            lineLength += 1
        }
        return nil
    }

    /// Parses a complete head: the request line, header lines and the empty line, each ending in LF or CRLF.
    static func parseHead(_ bytes: UnsafeRawBufferPointer) throws(HTTPServerError) -> HTTPRequestHead {
        var lines: [UnsafeRawBufferPointer] = []
        var start = 0
        for index in bytes.indices where bytes[index] == ASCII.lf {
            var end = index
            if end > start && bytes[end - 1] == ASCII.cr { end -= 1 }
            lines.append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = index + 1
        }
        guard let requestLine = lines.first else { throw .malformedRequest(reason: "empty head") }
        var head = try parseRequestLine(requestLine)
        for line in lines.dropFirst() where !line.isEmpty {
            let field = try parseField(line)
            head.headers.add(field.name, field.value)
        }
        return head
    }

    /// Parses `method SP request-target SP HTTP-version` (RFC 9112 section 3).
    static func parseRequestLine(_ line: UnsafeRawBufferPointer) throws(HTTPServerError) -> HTTPRequestHead {
        let parts = line.split(separator: ASCII.space, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedRequest(reason: "request line needs three parts") }
        let method = parts[0]
        let target = parts[1]
        guard !method.isEmpty, method.allSatisfy(ASCII.isTokenByte) else {
            throw .malformedRequest(reason: "bad method")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformedRequest(reason: "bad request-target")
        }
        let version = try parseVersion(parts[2])
        return HTTPRequestHead(
            method: String(decoding: method, as: UTF8.self),
            target: String(decoding: target, as: UTF8.self),
            version: version,
            headers: HTTPHeaders()
        )
    }

    /// Parses `HTTP/DIGIT.DIGIT`; versions other than 1.0 and 1.1 are `unsupportedVersion`.
    static func parseVersion(_ bytes: Slice<UnsafeRawBufferPointer>) throws(HTTPServerError) -> HTTPVersion {
        let text = UnsafeRawBufferPointer(rebasing: bytes)
        guard text.count == 8, text.starts(with: "HTTP/".utf8), text[6] == UInt8(ascii: "."),
            let major = ASCII.digitValue(text[5]), let minor = ASCII.digitValue(text[7])
        else { throw .malformedRequest(reason: "bad HTTP version") }
        guard major == 1, minor <= 1 else { throw .unsupportedVersion }
        return HTTPVersion(major: major, minor: minor)
    }

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 section 5). Whitespace before the colon and
    /// obsolete line folding are rejected, as section 5.1 and 5.2 require of a server.
    static func parseField(_ line: UnsafeRawBufferPointer) throws(HTTPServerError) -> HTTPHeaders.Field {
        if let first = line.first, ASCII.isWhitespace(first) {
            throw .malformedRequest(reason: "obsolete line folding")
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            throw .malformedRequest(reason: "header line without colon")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenByte) else {
            throw .malformedRequest(reason: "bad header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.endIndex
        while valueStart < valueEnd && ASCII.isWhitespace(line[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && ASCII.isWhitespace(line[valueEnd - 1]) { valueEnd -= 1 }
        return (
            name: String(decoding: name, as: UTF8.self),
            value: String(decoding: line[valueStart..<valueEnd], as: UTF8.self)
        )
    }
}

/// The bytes and character classes of HTTP's grammar (RFC 9110 section 5.6.2, RFC 5234 appendix B.1).
enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B

    /// Whether the byte is a `tchar`, allowed in methods, field names and other tokens.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E:  // !#$%&'*+-.^_`|~
            true
        default:
            false
        }
    }

    /// Whether the byte is a space or horizontal tab.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// The value of a decimal digit, or nil.
    static func digitValue(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// The value of a hexadecimal digit of either case, or nil.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
