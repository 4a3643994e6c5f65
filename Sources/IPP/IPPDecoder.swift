/// Decodes IPP messages (RFC 8010 section 3) from bytes, stopping at end-of-attributes.
///
/// The decoder never traps: any byte sequence either decodes or throws an `IPPDecodingError` naming the
/// problem and its offset. Document data after end-of-attributes is left to the caller.
public struct IPPDecoder: Sendable {
    public var limits: IPPLimits

    public init(limits: IPPLimits = .default) {
        self.limits = limits
    }

    /// Decodes the message at the start of `bytes`.
    ///
    /// - Returns: the message and the offset of the first byte after end-of-attributes (the document data).
    /// - Throws: `IPPDecodingError.truncated` when `bytes` ends before end-of-attributes; another case for
    ///   bytes that no amount of further data can make valid.
    public func decode(_ bytes: [UInt8]) throws(IPPDecodingError) -> (message: IPPMessage, dataOffset: Int) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(IPPDecodingError) in
            var cursor = Cursor(bytes: buffer, limits: limits)
            let message = try cursor.readMessage()
            return (message, cursor.offset)
        }
    }

    /// Where an incomplete message stopped: the attributes before `offset` are decoded, so decoding can resume
    /// there once more bytes arrived instead of starting over (linear work for a message sent in pieces).
    public struct Checkpoint: Sendable {
        var message: IPPMessage
        var offset: Int
        var valueCount: Int
    }

    /// What an attempt on a possibly incomplete message gave.
    public enum PartialResult: Sendable {
        /// The whole message, and the offset of the document data.
        case complete(IPPMessage, dataOffset: Int)
        /// More bytes are needed; pass the checkpoint (nil: start over) with the longer buffer.
        case incomplete(Checkpoint?)
    }

    /// Decodes `bytes`, resuming from a checkpoint of an earlier attempt on a prefix of the same bytes.
    public func decode(_ bytes: [UInt8], resumingFrom checkpoint: Checkpoint?) throws(IPPDecodingError)
        -> PartialResult
    {
        try bytes.withUnsafeBufferPointer { (buffer) throws(IPPDecodingError) in
            var cursor = Cursor(bytes: buffer, limits: limits)
            do throws(IPPDecodingError) {
                let message = try cursor.readMessage(resumingFrom: checkpoint)
                return .complete(message, dataOffset: cursor.offset)
            } catch .truncated {
                return .incomplete(
                    cursor.message.map {
                        Checkpoint(message: $0, offset: cursor.resumeOffset, valueCount: cursor.resumeValueCount)
                    })
            }
        }
    }
}

/// Reads values from a buffer, tracking the offset for errors.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: IPPLimits
    var offset = 0
    var valueCount = 0
    /// The message decoded so far (nil until its header is read): always whole attributes only.
    var message: IPPMessage?
    /// The offset and value count at the start of the attribute being read, where decoding can resume.
    var resumeOffset = 0
    var resumeValueCount = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: IPPLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func readMessage(resumingFrom checkpoint: IPPDecoder.Checkpoint? = nil) throws(IPPDecodingError)
        -> IPPMessage
    {
        if let checkpoint {
            message = checkpoint.message
            offset = checkpoint.offset
            valueCount = checkpoint.valueCount
        } else {
            let major = try readByte()
            let minor = try readByte()
            let code = try readUInt16()
            let requestID = Int32(bitPattern: try readUInt32())
            message = IPPMessage(version: IPPVersion(major: major, minor: minor), code: code, requestID: requestID)
        }
        while true {
            resumeOffset = offset
            resumeValueCount = valueCount
            try checkSize()
            let tagOffset = offset
            let tag = IPPTag(rawValue: try readByte())
            if tag == .endOfAttributes, let message {
                return message
            }
            if tag.isDelimiter {
                guard tag.isGroup else { throw .invalidTag(tag, offset: tagOffset) }
                message?.groups.append(IPPAttributeGroup(tag: tag))
                continue
            }
            guard let groupCount = message?.groups.count, groupCount > 0 else {
                throw .valueOutsideGroup(offset: tagOffset)
            }
            let name = try readName()
            if tag == .endCollection || tag == .memberAttributeName {
                throw .collectionTagOutsideCollection(tag, offset: tagOffset)
            }
            let value = try readValue(tag: tag, depth: 0, tagOffset: tagOffset)
            let groupIndex = groupCount - 1
            if name.isEmpty {
                guard let count = message?.groups[groupIndex].attributes.count, count > 0 else {
                    throw .additionalValueWithoutAttribute(offset: tagOffset)
                }
                message?.groups[groupIndex].attributes[count - 1].values.append(value)
            } else {
                message?.groups[groupIndex].attributes.append(IPPAttribute(name: name, values: [value]))
            }
        }
    }

    /// Reads one value whose tag and name were read; for a collection, reads through its endCollection.
    mutating func readValue(tag: IPPTag, depth: Int, tagOffset: Int) throws(IPPDecodingError) -> IPPValue {
        valueCount += 1
        guard valueCount <= limits.maximumValueCount else {
            throw .tooManyValues(limit: limits.maximumValueCount, offset: tagOffset)
        }
        let lengthOffset = offset
        let length = Int(try readUInt16())
        let limit = IPPLimits.maximumLength(of: tag)
        guard length <= limit else { throw .valueTooLong(tag: tag, length: length, limit: limit, offset: lengthOffset) }
        let start = offset
        let value = Array(try readBytes(length))

        func fixed(_ expected: Int) throws(IPPDecodingError) {
            guard length == expected else {
                throw .badValueLength(tag: tag, expected: expected, got: length, offset: lengthOffset)
            }
        }

        switch tag {
        case .integer, .enum:
            try fixed(4)
            let number = Int32(bitPattern: bigEndian32(value, at: 0))
            return tag == .integer ? .integer(number) : .enumValue(number)
        case .boolean:
            try fixed(1)
            return .boolean(value[0] != 0)
        case .dateTime:
            try fixed(11)
            return .dateTime(
                IPPDateTime(
                    year: UInt16(value[0]) << 8 | UInt16(value[1]), month: value[2], day: value[3], hour: value[4],
                    minutes: value[5], seconds: value[6], deciSeconds: value[7], utcDirection: value[8],
                    utcHours: value[9], utcMinutes: value[10]))
        case .resolution:
            try fixed(9)
            return .resolution(
                IPPResolution(
                    crossFeed: Int32(bitPattern: bigEndian32(value, at: 0)),
                    feed: Int32(bitPattern: bigEndian32(value, at: 4)),
                    units: IPPResolution.Units(rawValue: value[8])))
        case .rangeOfInteger:
            try fixed(8)
            let lower = Int32(bitPattern: bigEndian32(value, at: 0))
            let upper = Int32(bitPattern: bigEndian32(value, at: 4))
            // A reversed range cannot be represented; keep the bytes so the caller can refuse it.
            guard lower <= upper else { return .other(tag: tag, bytes: value) }
            return .rangeOfInteger(lower...upper)
        case .textWithLanguage, .nameWithLanguage:
            return try readWithLanguage(tag: tag, value: value, offset: start)
        case .beginCollection:
            guard depth < IPPLimits.maximumCollectionDepth else { throw .collectionTooDeep(offset: tagOffset) }
            return .collection(try readCollectionMembers(depth: depth + 1))
        case .octetString:
            return .octetString(value)
        case .textWithoutLanguage: return .text(string(value))
        case .nameWithoutLanguage: return .name(string(value))
        case .keyword: return .keyword(string(value))
        case .uri: return .uri(string(value))
        case .uriScheme: return .uriScheme(string(value))
        case .charset: return .charset(string(value))
        case .naturalLanguage: return .naturalLanguage(string(value))
        case .mimeMediaType: return .mimeMediaType(string(value))
        case .extension:
            guard length >= 4 else { throw .badExtensionValue(offset: lengthOffset) }
            return .other(tag: tag, bytes: value)
        default:
            if tag.isOutOfBand { return .outOfBand(tag) }
            return .other(tag: tag, bytes: value)
        }
    }

    /// Reads collection members up to and including endCollection (RFC 8010 section 3.1.6).
    mutating func readCollectionMembers(depth: Int) throws(IPPDecodingError) -> [IPPAttribute] {
        var members: [IPPAttribute] = []
        while true {
            try checkSize()
            let tagOffset = offset
            let tag = IPPTag(rawValue: try readByte())
            if tag.isDelimiter { throw .unterminatedCollection(offset: tagOffset) }
            _ = try readName()  // members carry their names in memberAttrName values; this one is empty
            switch tag {
            case .endCollection:
                _ = try readBytes(Int(try readUInt16()))
                if let last = members.last, last.values.isEmpty { throw .memberValueMissing(offset: tagOffset) }
                return members
            case .memberAttributeName:
                if let last = members.last, last.values.isEmpty { throw .memberValueMissing(offset: tagOffset) }
                let lengthOffset = offset
                let length = Int(try readUInt16())
                guard length <= IPPLimits.maximumNameLength else {
                    throw .valueTooLong(
                        tag: tag, length: length, limit: IPPLimits.maximumNameLength, offset: lengthOffset)
                }
                guard length > 0 else { throw .memberValueMissing(offset: tagOffset) }
                members.append(IPPAttribute(name: string(try readBytes(length)), values: []))
            default:
                guard !members.isEmpty else { throw .memberValueMissing(offset: tagOffset) }
                let value = try readValue(tag: tag, depth: depth, tagOffset: tagOffset)
                members[members.count - 1].values.append(value)
            }
        }
    }

    mutating func readWithLanguage(tag: IPPTag, value bytes: [UInt8], offset start: Int)
        throws(IPPDecodingError) -> IPPValue
    {
        guard bytes.count >= 4 else { throw .badLanguageValue(tag: tag, offset: start) }
        let languageLength = Int(bytes[0]) << 8 | Int(bytes[1])
        guard languageLength <= IPPLimits.maximumShortStringLength, 2 + languageLength + 2 <= bytes.count else {
            throw .badLanguageValue(tag: tag, offset: start)
        }
        let textStart = 2 + languageLength + 2
        let textLength = Int(bytes[textStart - 2]) << 8 | Int(bytes[textStart - 1])
        guard textStart + textLength == bytes.count else { throw .badLanguageValue(tag: tag, offset: start) }
        let textLimit = tag == .textWithLanguage ? IPPLimits.maximumTextLength : IPPLimits.maximumNameLength
        guard textLength <= textLimit else {
            throw .valueTooLong(tag: tag, length: textLength, limit: textLimit, offset: start)
        }
        let language = string(bytes[2..<(2 + languageLength)])
        let text = string(bytes[textStart...])
        return tag == .textWithLanguage
            ? .textWithLanguage(language: language, text: text) : .nameWithLanguage(language: language, name: text)
    }

    mutating func readName() throws(IPPDecodingError) -> String {
        let lengthOffset = offset
        let length = Int(try readUInt16())
        guard length <= IPPLimits.maximumNameLength else { throw .nameTooLong(length: length, offset: lengthOffset) }
        return string(try readBytes(length))
    }

    /// Called before reading a tag: the tag's byte would be byte number `offset + 1` of the message.
    func checkSize() throws(IPPDecodingError) {
        if offset >= limits.maximumMessageBytes { throw .messageTooLarge(limit: limits.maximumMessageBytes) }
    }

    mutating func readByte() throws(IPPDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readUInt16() throws(IPPDecodingError) -> UInt16 {
        let bytes = try readBytes(2)
        return UInt16(bytes[bytes.startIndex]) << 8 | UInt16(bytes[bytes.startIndex + 1])
    }

    mutating func readUInt32() throws(IPPDecodingError) -> UInt32 {
        bigEndian32(try readBytes(4), at: 0)
    }

    mutating func readBytes(_ count: Int) throws(IPPDecodingError) -> UnsafeBufferPointer<UInt8>.SubSequence {
        guard count <= bytes.count - offset else {
            // Report where the message ran out, or where it would have grown past the limit.
            if offset + count > limits.maximumMessageBytes { throw .messageTooLarge(limit: limits.maximumMessageBytes) }
            throw .truncated(offset: bytes.count)
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    func string<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// The big-endian 32-bit number at `index` (relative to the collection's start); the caller checked the length.
private func bigEndian32<C: Collection<UInt8>>(_ bytes: C, at index: Int) -> UInt32 where C.Index == Int {
    let i = bytes.startIndex + index
    return UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
}
