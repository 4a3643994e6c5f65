import PrintModel

/// A PDF object value, as far as a structure check needs it: strings keep no contents, streams no data.
///
/// ISO 32000-1 section 7.3 (objects).
enum PDFValue: Equatable, Sendable {
    case integer(Int)
    case real(Double)
    case boolean
    case null
    case name(String)
    case string
    case array([PDFValue])
    case dictionary([String: PDFValue])
    /// An indirect reference `N G R`; only the object number is kept.
    case reference(Int)

    /// The value of `key` when this is a dictionary.
    subscript(key: String) -> PDFValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// An integer or real number as a Double.
    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    var nameValue: String? {
        if case .name(let value) = self { return value }
        return nil
    }
}

/// Reads the top level of a PDF file front to back without building its pages: `N G obj ... endobj` objects
/// (stream data is skipped, by its /Length when that is direct), `xref` tables, `trailer` dictionaries and comments.
///
/// ISO 32000-1 sections 7.2 (lexical conventions), 7.3.8 (streams) and 7.5 (file structure). Memory stays small:
/// string contents and stream data are never kept.
final class PDFObjectScanner {
    /// The deepest nesting of arrays and dictionaries accepted.
    static let maximumDepth = 32
    /// The most entries one array or dictionary may hold.
    static let maximumEntries = 100_000

    /// One top-level item of the file.
    enum Item {
        /// An indirect object; `streamLength` is the length of its stream data, nil when it has none.
        case object(number: Int, value: PDFValue, streamLength: Int?)
        case trailer(PDFValue)
        /// A comment at the top level, without its `%`.
        case comment(String)
    }

    private let reader: ByteReader
    private var pushedBack: UInt8?

    init(_ reader: ByteReader) {
        self.reader = reader
    }

    /// Bytes consumed so far.
    var offset: Int { reader.offset - (pushedBack == nil ? 0 : 1) }

    /// The next top-level item, or nil at the end of the file.
    func next() throws(RasterError) -> Item? {
        var pending: Token? = nil
        while true {
            let current: Token
            if let queued = pending {
                current = queued
                pending = nil
            } else {
                guard let token = try token(topLevel: true) else { return nil }
                current = token
            }
            switch current {
            case .comment(let text):
                return .comment(text)
            case .integer(let number):
                // `N G obj`; xref table rows and the startxref offset are numbers too, and skipped. A token read
                // ahead that is no part of `N G obj` is looked at again.
                guard let generation = try token(topLevel: true) else { return nil }
                guard case .integer = generation else {
                    pending = generation
                    continue
                }
                guard let keyword = try token(topLevel: true) else { return nil }
                guard keyword == .keyword("obj") else {
                    pending = keyword
                    continue
                }
                return try object(number)
            case .keyword("trailer"):
                return .trailer(try value(depth: 0))
            default:
                continue  // xref, the table's f and n, startxref
            }
        }
    }

    /// The rest of object `number` after `obj`: its value, its stream data (skipped) and `endobj`.
    private func object(_ number: Int) throws(RasterError) -> Item {
        let value = try value(depth: 0)
        guard let following = try token(topLevel: false) else {
            throw .truncated(what: "object \(number)", offset: offset)
        }
        guard case .keyword("stream") = following else {
            return .object(number: number, value: value, streamLength: nil)
        }
        // The keyword is followed by CRLF or LF (ISO 32000-1 section 7.3.8.1).
        var byte = try requiredByte("stream of object \(number)")
        if byte == 13 { byte = try requiredByte("stream of object \(number)") }
        guard byte == 10 else {
            throw .malformed(format: "PDF", reason: "object \(number): 'stream' is not followed by an end of line")
        }
        let length: Int
        if let direct = value["Length"]?.integerValue, direct >= 0 {
            try skip(direct, what: "stream of object \(number)")
            length = direct
            guard case .keyword("endstream")? = try token(topLevel: false) else {
                throw .malformed(
                    format: "PDF", reason: "object \(number): its stream is not /Length \(direct) bytes long")
            }
        } else {
            length = try skipToEndstream(number)
        }
        return .object(number: number, value: value, streamLength: length)
    }

    private enum Token: Equatable {
        case integer(Int)
        case real(Double)
        case keyword(String)
        case name(String)
        case string
        case arrayStart, arrayEnd, dictionaryStart, dictionaryEnd
        case comment(String)
    }

    /// One value starting at the next token.
    private func value(depth: Int) throws(RasterError) -> PDFValue {
        guard let token = try token(topLevel: false) else { throw .truncated(what: "PDF object", offset: offset) }
        return try value(startingWith: token, depth: depth)
    }

    private func value(startingWith first: Token, depth: Int) throws(RasterError) -> PDFValue {
        guard depth < Self.maximumDepth else {
            throw .limitExceeded(limit: "PDF nesting depth", value: depth + 1, maximum: Self.maximumDepth)
        }
        switch first {
        case .integer(let number):
            return try referenceOrInteger(number)
        case .real(let number): return .real(number)
        case .name(let name): return .name(name)
        case .string: return .string
        case .keyword("true"), .keyword("false"): return .boolean
        case .keyword("null"): return .null
        case .arrayStart:
            var items: [PDFValue] = []
            while true {
                guard let next = try token(topLevel: false) else { throw .truncated(what: "PDF array", offset: offset) }
                if next == .arrayEnd { return .array(items) }
                try checkEntries(items.count)
                items.append(try value(startingWith: next, depth: depth + 1))
            }
        case .dictionaryStart:
            var entries: [String: PDFValue] = [:]
            while true {
                guard let next = try token(topLevel: false) else {
                    throw .truncated(what: "PDF dictionary", offset: offset)
                }
                if next == .dictionaryEnd { return .dictionary(entries) }
                guard case .name(let key) = next else {
                    throw .malformed(format: "PDF", reason: "a dictionary key is not a name at byte \(offset)")
                }
                try checkEntries(entries.count)
                entries[key] = try value(depth: depth + 1)
            }
        default:
            throw .malformed(format: "PDF", reason: "unexpected \(first) at byte \(offset)")
        }
    }

    private func checkEntries(_ count: Int) throws(RasterError) {
        try RenderLimits.check("PDF array or dictionary entries", count + 1, Self.maximumEntries)
    }

    /// `N` alone, or `N G R`: looks two tokens ahead only when the next one is an integer.
    private func referenceOrInteger(_ number: Int) throws(RasterError) -> PDFValue {
        try skipWhitespace()
        guard let byte = try peek(), isDigit(byte) else { return .integer(number) }
        // A second integer: either a generation (then R) or the next value of an array.
        let mark = try token(topLevel: false)
        try skipWhitespace()
        if case .integer = mark, try peek() == UInt8(ascii: "R") {
            _ = try nextByte()
            return .reference(number)
        }
        // Arrays of plain integers (MediaBox) are the only place where this happens; the second one is kept by
        // the caller's next read, so it is re-queued through the look-ahead slot.
        if case .integer(let second) = mark { lookAhead = .integer(second) }
        return .integer(number)
    }

    private var lookAhead: Token?

    private func token(topLevel: Bool) throws(RasterError) -> Token? {
        if let queued = lookAhead {
            lookAhead = nil
            return queued
        }
        try skipWhitespace()
        guard let byte = try nextByte() else { return nil }
        switch byte {
        case UInt8(ascii: "%"):
            let text = try restOfLine()
            return topLevel ? .comment(text) : try token(topLevel: false)
        case UInt8(ascii: "/"):
            return .name(try regularRun())
        case UInt8(ascii: "("):
            try skipLiteralString()
            return .string
        case UInt8(ascii: "<"):
            if try peek() == UInt8(ascii: "<") {
                _ = try nextByte()
                return .dictionaryStart
            }
            try skip(until: UInt8(ascii: ">"), what: "hexadecimal string")
            return .string
        case UInt8(ascii: ">"):
            guard try nextByte() == UInt8(ascii: ">") else {
                throw .malformed(format: "PDF", reason: "a single '>' at byte \(offset)")
            }
            return .dictionaryEnd
        case UInt8(ascii: "["): return .arrayStart
        case UInt8(ascii: "]"): return .arrayEnd
        default:
            pushedBack = byte
            let word = try regularRun()
            if let number = Int(word) { return .integer(number) }
            if word.contains(where: { $0 == "." }), let number = Double(word) { return .real(number) }
            guard !word.isEmpty else {
                throw .malformed(format: "PDF", reason: "unexpected byte \(byte) at byte \(offset)")
            }
            return .keyword(word)
        }
    }

    // MARK: bytes

    private func nextByte() throws(RasterError) -> UInt8? {
        if let byte = pushedBack {
            pushedBack = nil
            return byte
        }
        return try reader.nextByte()
    }

    private func requiredByte(_ what: String) throws(RasterError) -> UInt8 {
        guard let byte = try nextByte() else { throw .truncated(what: what, offset: offset) }
        return byte
    }

    private func peek() throws(RasterError) -> UInt8? {
        if pushedBack == nil { pushedBack = try reader.nextByte() }
        return pushedBack
    }

    private func isWhitespace(_ byte: UInt8) -> Bool { [0, 9, 10, 12, 13, 32].contains(byte) }
    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private func isDelimiter(_ byte: UInt8) -> Bool { Array("()<>[]{}/%".utf8).contains(byte) }

    private func skipWhitespace() throws(RasterError) {
        while let byte = try peek(), isWhitespace(byte) { pushedBack = nil }
    }

    /// Regular characters up to the next whitespace or delimiter (names and keywords are short: at most 127).
    private func regularRun() throws(RasterError) -> String {
        var bytes: [UInt8] = []
        while let byte = try peek(), !isWhitespace(byte), !isDelimiter(byte) {
            pushedBack = nil
            if bytes.count < 127 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func restOfLine() throws(RasterError) -> String {
        var bytes: [UInt8] = []
        while let byte = try nextByte(), byte != 10, byte != 13 {
            if bytes.count < 127 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A `( ... )` string with balanced parentheses and backslash escapes (ISO 32000-1 section 7.3.4.2).
    private func skipLiteralString() throws(RasterError) {
        var depth = 1
        while depth > 0 {
            guard let byte = try nextByte() else { throw .truncated(what: "PDF string", offset: offset) }
            switch byte {
            case UInt8(ascii: "\\"): _ = try nextByte()
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            default: break
            }
        }
    }

    private func skip(until end: UInt8, what: String) throws(RasterError) {
        while true {
            guard let byte = try nextByte() else { throw .truncated(what: what, offset: offset) }
            if byte == end { return }
        }
    }

    private func skip(_ count: Int, what: String) throws(RasterError) {
        var left = count
        if left > 0, pushedBack != nil {
            pushedBack = nil
            left -= 1
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(left, 1), 64 * 1024), alignment: 8)
        defer { scratch.deallocate() }
        while left > 0 {
            let chunk = min(left, scratch.count)
            let read = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<chunk]))
            guard read == chunk else { throw .truncated(what: what, offset: offset) }
            left -= chunk
        }
    }

    /// Stream data whose length is an indirect object: read up to `endstream`; returns the data length.
    private func skipToEndstream(_ number: Int) throws(RasterError) -> Int {
        let marker = Array("endstream".utf8)
        var matched = 0
        var count = 0
        while true {
            guard let byte = try nextByte() else {
                throw .truncated(what: "stream of object \(number)", offset: offset)
            }
            count += 1
            matched = byte == marker[matched] ? matched + 1 : (byte == marker[0] ? 1 : 0)
            if matched == marker.count { return count - marker.count }
        }
    }
}
