/// Reads a small XML document into ``XMLElement``s: elements, attributes (skipped), text, CDATA, comments,
/// processing instructions and the five predefined and numeric character references. A document type
/// declaration is refused (no entity expansion, no external references), as are documents over
/// ``XMLReader/maximumBytes`` or nested deeper than ``XMLReader/maximumDepth``.
struct XMLReader {
    /// The largest document read: an eSCL ScanSettings is well under 4 KiB.
    static let maximumBytes = 64 * 1024
    /// The deepest nesting read.
    static let maximumDepth = 32

    /// Why a document could not be read: what was wrong and at which byte.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    /// The root element of `bytes`.
    static func read(_ bytes: [UInt8]) throws(Failure) -> XMLElement {
        guard bytes.count <= maximumBytes else {
            throw Failure(message: "the document is over \(maximumBytes) bytes", offset: maximumBytes)
        }
        var reader = XMLReader(bytes: bytes)
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func fail(_ message: String) -> Failure { Failure(message: message, offset: position) }

    private var atEnd: Bool { position >= bytes.count }

    private func starts(with text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return bytes.count - position >= utf8.count && Array(bytes[position..<(position + utf8.count)]) == utf8
    }

    private mutating func skipSpace() {
        while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    /// Skips past `terminator`, failing when the document ends first.
    private mutating func skip(past terminator: String, what: String) throws(Failure) {
        while !atEnd {
            if starts(with: terminator) {
                position += terminator.utf8.count
                return
            }
            position += 1
        }
        throw fail("unterminated \(what)")
    }

    /// Skips the prolog's and the epilog's comments, processing instructions and space.
    private mutating func skipMisc() throws(Failure) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                throw fail("a document type declaration is not accepted")
            } else {
                return
            }
        }
    }

    private mutating func document() throws(Failure) -> XMLElement {
        if starts(with: "\u{FEFF}") { position += 3 }
        try skipMisc()
        guard starts(with: "<") else { throw fail("no root element") }
        let root = try element(depth: 1)
        try skipMisc()
        guard atEnd else { throw fail("content after the root element") }
        return root
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
    }

    private mutating func name() throws(Failure) -> String {
        let start = position
        while !atEnd, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > start else { throw fail("a name was expected") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// The element at `<`, with everything inside it.
    private mutating func element(depth: Int) throws(Failure) -> XMLElement {
        guard depth <= Self.maximumDepth else { throw fail("elements nested deeper than \(Self.maximumDepth)") }
        position += 1
        let qualified = try name()
        try skipAttributes()
        let local = String(qualified.split(separator: ":").last ?? Substring(qualified))
        var element = XMLElement(name: local, text: "", children: [])
        if starts(with: "/>") {
            position += 2
            return element
        }
        position += 1  // ">"
        while true {
            guard !atEnd else { throw fail("<\(qualified)> is not closed") }
            if starts(with: "</") {
                position += 2
                let closing = try name()
                guard closing == qualified else { throw fail("</\(closing)> closes <\(qualified)>") }
                skipSpace()
                guard !atEnd, bytes[position] == UInt8(ascii: ">") else { throw fail("unterminated end tag") }
                position += 1
                return element
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                try skip(past: "]]>", what: "CDATA section")
                element.text += String(decoding: bytes[start..<(position - 3)], as: UTF8.self)
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!") {
                throw fail("a declaration is not accepted inside an element")
            } else if bytes[position] == UInt8(ascii: "<") {
                element.children.append(try self.element(depth: depth + 1))
            } else {
                element.text += try text()
            }
        }
    }

    /// Skips the attributes of a start tag, leaving the position at `>` or `/>`.
    private mutating func skipAttributes() throws(Failure) {
        while true {
            skipSpace()
            guard !atEnd else { throw fail("unterminated start tag") }
            if bytes[position] == UInt8(ascii: ">") || starts(with: "/>") { return }
            _ = try name()
            skipSpace()
            guard !atEnd, bytes[position] == UInt8(ascii: "=") else { throw fail("an attribute without a value") }
            position += 1
            skipSpace()
            guard !atEnd, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw fail("an attribute value without quotes")
            }
            let quote = bytes[position]
            position += 1
            while !atEnd, bytes[position] != quote {
                guard bytes[position] != UInt8(ascii: "<") else { throw fail("'<' in an attribute value") }
                position += 1
            }
            guard !atEnd else { throw fail("unterminated attribute value") }
            position += 1
        }
    }

    /// Character data up to the next `<`, with references replaced.
    private mutating func text() throws(Failure) -> String {
        var out: [UInt8] = []
        while !atEnd, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                out += try reference()
            } else {
                out.append(bytes[position])
                position += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A character reference at `&`, as UTF-8.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = position
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("an unterminated reference")
        }
        let body = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "lt": return Array("<".utf8)
        case "gt": return Array(">".utf8)
        case "amp": return Array("&".utf8)
        case "quot": return Array("\"".utf8)
        case "apos": return Array("'".utf8)
        default:
            var digits = Substring(body)
            guard digits.first == "#" else { throw Failure(message: "unknown entity &\(body);", offset: start) }
            digits = digits.dropFirst()
            let hex = digits.first == "x" || digits.first == "X"
            if hex { digits = digits.dropFirst() }
            guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) else {
                throw Failure(message: "a bad character reference &\(body);", offset: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
