import PrintModel

/// A PDF object value, kept so that it can be written back (``PDFValue/write(into:)``): a name as written (its `#`
/// escapes not undone, its bytes above ASCII escaped), a string as its token (delimiters included), a stream's
/// dictionary without its data.
///
/// ISO 32000-1 section 7.3 (objects).
enum PDFValue: Equatable, Sendable {
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case null
    case name(String)
    /// A literal `( )` or hexadecimal `< >` string, its bytes as written.
    case string([UInt8])
    case array([PDFValue])
    case dictionary([String: PDFValue])
    /// An indirect reference `N G R`.
    case reference(Int, generation: Int)

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

    /// The entries when this is a dictionary.
    var dictionaryEntries: [String: PDFValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }
}

/// Reads the top level of a PDF file front to back without building its pages: `N G obj ... endobj` objects
/// (stream data is skipped, by its /Length when that is direct, unless the caller asks for it), `xref` tables,
/// `trailer` dictionaries, `startxref` offsets and comments.
///
/// ISO 32000-1 sections 7.2 (lexical conventions), 7.3.8 (streams) and 7.5 (file structure). Memory stays small:
/// stream data is kept only for the streams `keepsData` picks, up to ``maximumKeptStreamBytes``.
final class PDFObjectScanner {
    /// The deepest nesting of arrays and dictionaries accepted.
    static let maximumDepth = 32
    /// The most entries one array or dictionary may hold.
    static let maximumEntries = 100_000
    /// The longest name, in bytes as written (ISO 32000-1 Annex C gives 127 as a reader's limit).
    static let maximumNameBytes = 4096
    /// The longest string kept, in bytes as written.
    static let maximumStringBytes = 1024 * 1024
    /// The longest stream whose data is kept.
    static let maximumKeptStreamBytes = 64 * 1024 * 1024
    /// The highest object number (ISO 32000-1 Annex C.2: 8,388,607 indirect objects in a file).
    static let maximumObjectNumber = 8_388_607
    /// The highest generation number (ISO 32000-1 section 7.5.4: a generation number never exceeds 65,535).
    static let maximumGeneration = 65_535

    /// Throws `.malformed` when `number` and `generation`, of an object or a reference, are outside
    /// 0...``maximumObjectNumber`` and 0...``maximumGeneration``: no number a document gives reaches arithmetic
    /// that could overflow.
    static func checkObjectNumber(_ number: Int, generation: Int) throws(RasterError) {
        guard (0...maximumObjectNumber).contains(number), (0...maximumGeneration).contains(generation) else {
            throw .malformed(
                format: "PDF",
                reason: "object \(number) \(generation) is out of range (at most \(maximumObjectNumber) and "
                    + "generation \(maximumGeneration), ISO 32000-1 Annex C.2 and section 7.5.4)")
        }
    }

    /// One top-level item of the file.
    enum Item {
        /// An indirect object; `streamLength` is the length of its stream data, nil when it has none, and
        /// `streamData` that data when `keepsData` asked for it.
        case object(number: Int, generation: Int, value: PDFValue, streamLength: Int?, streamData: [UInt8]?)
        case trailer(PDFValue)
        /// The byte offset after `startxref`: where the file's newest cross-reference section starts.
        case startxref(Int)
        /// A comment at the top level, without its `%`.
        case comment(String)
    }

    private let reader: ByteReader
    private let keepsData: (PDFValue) -> Bool
    private var pushedBack: UInt8?

    /// A scanner of `reader` that keeps the data of the streams whose dictionary `keepsData` picks.
    init(_ reader: ByteReader, keepingDataOf keepsData: @escaping (PDFValue) -> Bool = { _ in false }) {
        self.reader = reader
        self.keepsData = keepsData
    }

    /// The next value, read as a value of an object's body; nil at the end of the data. An object stream's
    /// contents (ISO 32000-1 section 7.5.7) are read with it: pairs of integers, then the objects' values.
    func nextValue() throws(RasterError) -> PDFValue? {
        guard let token = try token(topLevel: false) else { return nil }
        return try value(startingWith: token, depth: 0)
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
                guard case .integer(let generationNumber) = generation else {
                    pending = generation
                    continue
                }
                guard let keyword = try token(topLevel: true) else { return nil }
                guard keyword == .keyword("obj") else {
                    pending = keyword
                    continue
                }
                try Self.checkObjectNumber(number, generation: generationNumber)
                return try object(number, generation: generationNumber)
            case .keyword("trailer"):
                return .trailer(try value(depth: 0))
            case .keyword("startxref"):
                guard let offset = try token(topLevel: true) else { return nil }
                guard case .integer(let value) = offset else {
                    pending = offset
                    continue
                }
                return .startxref(value)
            default:
                continue  // xref and the table's f and n
            }
        }
    }

    /// The rest of object `number` after `obj`: its value, its stream data (skipped unless `keepsData` picks it) and
    /// `endobj`.
    private func object(_ number: Int, generation: Int) throws(RasterError) -> Item {
        let value = try value(depth: 0)
        guard let following = try token(topLevel: false) else {
            throw .truncated(what: "object \(number)", offset: offset)
        }
        guard case .keyword("stream") = following else {
            return .object(number: number, generation: generation, value: value, streamLength: nil, streamData: nil)
        }
        // The keyword is followed by CRLF or LF (ISO 32000-1 section 7.3.8.1).
        var byte = try requiredByte("stream of object \(number)")
        if byte == 13 { byte = try requiredByte("stream of object \(number)") }
        guard byte == 10 else {
            throw .malformed(format: "PDF", reason: "object \(number): 'stream' is not followed by an end of line")
        }
        var kept: [UInt8]? = keepsData(value) ? [] : nil
        let length: Int
        if let direct = value["Length"]?.integerValue, direct >= 0 {
            if kept != nil { try RenderLimits.check("kept PDF stream bytes", direct, Self.maximumKeptStreamBytes) }
            try skip(direct, what: "stream of object \(number)", keeping: &kept)
            length = direct
            guard case .keyword("endstream")? = try token(topLevel: false) else {
                throw .malformed(
                    format: "PDF", reason: "object \(number): its stream is not /Length \(direct) bytes long")
            }
        } else {
            length = try skipToEndstream(number, keeping: &kept)
        }
        return .object(number: number, generation: generation, value: value, streamLength: length, streamData: kept)
    }

    private enum Token: Equatable {
        case integer(Int)
        case real(Double)
        case keyword(String)
        case name(String)
        case string([UInt8])
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
        case .string(let bytes): return .string(bytes)
        case .keyword("true"): return .boolean(true)
        case .keyword("false"): return .boolean(false)
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
        if case .integer(let generation) = mark, try peek() == UInt8(ascii: "R") {
            _ = try nextByte()
            try Self.checkObjectNumber(number, generation: generation)
            return .reference(number, generation: generation)
        }
        // Two numbers in a row (an array such as [0 0 595.28 841.89]): the one read ahead, whatever it is, is the
        // caller's next token, re-queued through the look-ahead slot.
        lookAhead = mark
        return .integer(number)
    }

    private var lookAhead: Token?

    private func token(topLevel: Bool) throws(RasterError) -> Token? {
        if let queued = lookAhead {
            lookAhead = nil
            return queued
        }
        // Comments inside a value are whitespace (ISO 32000-1 section 7.2.3): skipped in this loop, however many
        // follow each other.
        var byte: UInt8
        while true {
            try skipWhitespace()
            guard let next = try nextByte() else { return nil }
            guard next == UInt8(ascii: "%") else {
                byte = next
                break
            }
            let text = try restOfLine()
            if topLevel { return .comment(text) }
        }
        switch byte {
        case UInt8(ascii: "/"):
            return .name(try nameRun())
        case UInt8(ascii: "("):
            return .string(try literalString())
        case UInt8(ascii: "<"):
            if try peek() == UInt8(ascii: "<") {
                _ = try nextByte()
                return .dictionaryStart
            }
            return .string(try hexadecimalString())
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
            if Self.isNumber(word) {
                // Digits past Int's range, or a real past Double's: refused, so that no huge value reaches a count,
                // an offset or a conversion to Int.
                guard let number = Double(word), number.isFinite, word.contains(where: { $0 == "." }) else {
                    throw .malformed(format: "PDF", reason: "the number \(word) at byte \(offset) is out of range")
                }
                return .real(number)
            }
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

    /// Whether `word` is written as a PDF number (ISO 32000-1 section 7.3.3): a sign, then digits with at most
    /// one point.
    private static func isNumber(_ word: String) -> Bool {
        var digits = Array(word.utf8.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        guard word.utf8.count - digits.count <= 1, !digits.isEmpty else { return false }
        if let point = digits.firstIndex(of: UInt8(ascii: ".")) { digits.remove(at: point) }
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
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

    /// A name after its `/`, as written but with bytes outside printable ASCII written as `#xx` (ISO 32000-1
    /// section 7.3.5), so that the name written back is the same bytes; longer than ``maximumNameBytes``, an error.
    private func nameRun() throws(RasterError) -> String {
        var text = ""
        var count = 0
        while let byte = try peek(), !isWhitespace(byte), !isDelimiter(byte) {
            pushedBack = nil
            count += 1
            try RenderLimits.check("PDF name bytes", count, Self.maximumNameBytes)
            if byte > 0x7E {
                let digits = Array("0123456789ABCDEF".utf8)
                text.unicodeScalars.append("#")
                text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
                text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0x0F)]))
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    private func restOfLine() throws(RasterError) -> String {
        var bytes: [UInt8] = []
        while let byte = try nextByte(), byte != 10, byte != 13 {
            if bytes.count < 127 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A `( ... )` string with balanced parentheses and backslash escapes (ISO 32000-1 section 7.3.4.2), as
    /// written, parentheses included.
    private func literalString() throws(RasterError) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "(")]
        var depth = 1
        while depth > 0 {
            guard let byte = try nextByte() else { throw .truncated(what: "PDF string", offset: offset) }
            try checkStringLength(bytes.count)
            bytes.append(byte)
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = try nextByte() else { throw .truncated(what: "PDF string", offset: offset) }
                bytes.append(escaped)
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            default: break
            }
        }
        return bytes
    }

    /// A `< ... >` string (ISO 32000-1 section 7.3.4.3), as written, angle brackets included.
    private func hexadecimalString() throws(RasterError) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "<")]
        while true {
            guard let byte = try nextByte() else { throw .truncated(what: "hexadecimal string", offset: offset) }
            try checkStringLength(bytes.count)
            bytes.append(byte)
            if byte == UInt8(ascii: ">") { return bytes }
        }
    }

    private func checkStringLength(_ count: Int) throws(RasterError) {
        if count >= Self.maximumStringBytes {
            try RenderLimits.check("PDF string bytes", count + 1, Self.maximumStringBytes)
        }
    }

    /// Skips `count` bytes of stream data, appending them to `kept` when it is not nil.
    private func skip(_ count: Int, what: String, keeping kept: inout [UInt8]?) throws(RasterError) {
        var left = count
        if left > 0, let byte = pushedBack {
            pushedBack = nil
            kept?.append(byte)
            left -= 1
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(left, 1), 64 * 1024), alignment: 8)
        defer { scratch.deallocate() }
        while left > 0 {
            let chunk = min(left, scratch.count)
            let read = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<chunk]))
            guard read == chunk else { throw .truncated(what: what, offset: offset) }
            kept?.append(contentsOf: scratch[0..<chunk])
            left -= chunk
        }
    }

    /// Stream data whose length is an indirect object: read up to `endstream`; returns the data length, and
    /// appends the data to `kept` when it is not nil.
    private func skipToEndstream(_ number: Int, keeping kept: inout [UInt8]?) throws(RasterError) -> Int {
        let marker = Array("endstream".utf8)
        var matched = 0
        var count = 0
        while true {
            guard let byte = try nextByte() else {
                throw .truncated(what: "stream of object \(number)", offset: offset)
            }
            count += 1
            if kept != nil {
                try RenderLimits.check("kept PDF stream bytes", count, Self.maximumKeptStreamBytes + marker.count)
                kept?.append(byte)
            }
            matched = byte == marker[matched] ? matched + 1 : (byte == marker[0] ? 1 : 0)
            if matched == marker.count {
                kept?.removeLast(marker.count)
                return count - marker.count
            }
        }
    }
}
