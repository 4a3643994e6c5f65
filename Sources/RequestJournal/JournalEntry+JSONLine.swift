import IPP
import PrintModel

/// The journal file's line of an entry, written straight from the entry: the same JSON as its `Codable` form (the
/// same keys, from its `CodingKeys`; a test reads each line back with `JSONDecoder`), in a fifth of the time of
/// going through an `Encoder`, which under a load of small requests cost the printer a quarter of its time.
extension JournalEntry {
    /// Entries as a JSON array, one entry a line, each written as the journal file writes it: the same JSON as
    /// encoding the array with `JSONEncoder` (a test holds them equal), without the encoder's intermediate values,
    /// which for a thousand entries took the printer's memory up by 50 MB for the time of the answer.
    public static func jsonArray(_ entries: [JournalEntry]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        var cache = JSONLineWriter.GroupsCache()
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(0x0A)
            bytes += entry.jsonLine(reusing: &cache).dropLast()
        }
        bytes += [0x0A, UInt8(ascii: "]"), 0x0A]
        return bytes
    }

    /// The entry as one line of JSON, newline included.
    public func jsonLine() -> [UInt8] {
        var unused = JSONLineWriter.GroupsCache()
        return jsonLine(reusing: &unused)
    }

    /// The entry's line, taking the JSON of its attribute groups from `cache` when they are the groups the cache
    /// last wrote (a client polling sends the same request over and over), and leaving its own there.
    func jsonLine(reusing cache: inout JSONLineWriter.GroupsCache) -> [UInt8] {
        var out = JSONLineWriter()
        out.open("{")
        out.member(CodingKeys.id, id)
        out.member(CodingKeys.time, time)
        out.member(CodingKeys.durationMilliseconds, durationMilliseconds)
        out.member(CodingKeys.kind, kind.rawValue)
        out.member(CodingKeys.connection, connection)
        out.key(CodingKeys.client)
        out.open("{")
        out.member(Client.CodingKeys.address, client.address)
        if let port = client.port { out.member(Client.CodingKeys.port, port) }
        if let agent = client.userAgent { out.member(Client.CodingKeys.userAgent, agent) }
        out.close("}")
        out.member(CodingKeys.tls, tls)
        if let user { out.member(CodingKeys.user, user) }
        if let printer { out.member(CodingKeys.printer, printer) }
        out.key(CodingKeys.http)
        out.open("{")
        out.member(HTTPPart.CodingKeys.method, http.method)
        out.member(HTTPPart.CodingKeys.path, http.path)
        out.member(HTTPPart.CodingKeys.status, http.status)
        out.close("}")
        if let ipp {
            out.key(CodingKeys.ipp)
            out.ipp(ipp, cache: &cache)
        }
        if let problem { out.member(CodingKeys.problem, problem) }
        if let findings {
            out.key(CodingKeys.findings)
            out.findings(findings)
        }
        out.close("}")
        out.bytes.append(0x0A)
        return out.bytes
    }
}

/// A writer of compact JSON for the journal's own types.
struct JSONLineWriter {
    var bytes: [UInt8] = []
    /// Whether the next member or element is the first of its object or array.
    var first = true

    init() {
        bytes.reserveCapacity(1024)
    }

    /// Opens an object or an array (`{` or `[`), as a value or an element.
    mutating func open(_ bracket: Unicode.Scalar) {
        comma()
        bytes.append(UInt8(ascii: bracket))
        first = true
    }

    /// Closes what `open` opened.
    mutating func close(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        first = false
    }

    /// A member's key; its value follows without a comma.
    mutating func key(_ key: some CodingKey) {
        comma()
        string(key.stringValue)
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    mutating func member(_ key: some CodingKey, _ value: String) {
        self.key(key)
        string(value)
        first = false
    }

    mutating func member(_ key: some CodingKey, _ value: Int) {
        self.key(key)
        integer(value)
        first = false
    }

    mutating func member(_ key: some CodingKey, _ value: Double) {
        self.key(key)
        number(value)
        first = false
    }

    mutating func member(_ key: some CodingKey, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        first = false
    }

    /// The JSON of the attribute groups a writer wrote last, to copy when the next entry has the same groups.
    struct GroupsCache {
        var groups = RequestGroups(journaled: [])
        var json: [UInt8] = []
    }

    mutating func ipp(_ ipp: JournalEntry.IPPPart, cache: inout GroupsCache) {
        typealias Keys = JournalEntry.IPPPart.CodingKeys
        open("{")
        member(Keys.version, ipp.version)
        member(Keys.operation, ipp.operation)
        member(Keys.operationID, ipp.operationID)
        member(Keys.requestID, ipp.requestID)
        key(Keys.requestGroups)
        if !cache.json.isEmpty && cache.groups == ipp.requestGroups {
            bytes += cache.json
            first = false
        } else {
            let start = bytes.count
            open("[")
            for group in ipp.groups {
                open("{")
                member(JournaledGroup.CodingKeys.tag, group.tag)
                key(JournaledGroup.CodingKeys.attributes)
                attributes(group.attributes)
                close("}")
            }
            close("]")
            cache = GroupsCache(groups: ipp.requestGroups, json: Array(bytes[start...]))
        }
        if let document = ipp.document {
            typealias DocumentKeys = JournalEntry.Document.CodingKeys
            key(Keys.document)
            open("{")
            member(DocumentKeys.format, document.format)
            if let detected = document.detectedFormat { member(DocumentKeys.detectedFormat, detected) }
            member(DocumentKeys.size, document.size)
            member(DocumentKeys.sha256, document.sha256)
            close("}")
        }
        member(Keys.status, ipp.status)
        member(Keys.statusCode, ipp.statusCode)
        key(Keys.unsupported)
        attributes(ipp.unsupported)
        if let jobID = ipp.jobID { member(Keys.jobID, jobID) }
        close("}")
    }

    mutating func findings(_ findings: [ClientFinding]) {
        typealias Keys = ClientFinding.CodingKeys
        open("[")
        for finding in findings {
            open("{")
            member(Keys.rule, finding.rule.rawValue)
            member(Keys.severity, finding.severity.rawValue)
            member(Keys.reference, finding.reference)
            member(Keys.message, finding.message)
            if let attribute = finding.attribute { member(Keys.attribute, attribute) }
            close("}")
        }
        close("]")
    }

    mutating func attributes(_ attributes: [JournaledAttribute]) {
        open("[")
        for attribute in attributes {
            open("{")
            member(JournaledAttribute.CodingKeys.name, attribute.name)
            key(JournaledAttribute.CodingKeys.values)
            open("[")
            for value in attribute.values { self.value(value) }
            close("]")
            close("}")
        }
        close("]")
    }

    mutating func value(_ value: JournaledValue) {
        typealias Keys = JournaledValue.CodingKeys
        open("{")
        member(Keys.tag, value.tag)
        if let json = value.value {
            key(Keys.value)
            self.json(json)
            first = false
        }
        if let keyword = value.keyword { member(Keys.keyword, keyword) }
        if let language = value.language { member(Keys.language, language) }
        if let hex = value.hex { member(Keys.hex, hex) }
        if let members = value.members {
            key(Keys.members)
            attributes(members)
        }
        close("}")
    }

    /// A JSONValue as RecordJSONWriter writes one on a line (its objects come from the journal: ranges and
    /// resolutions, a handful of keys).
    mutating func json(_ value: JSONValue) {
        switch value {
        case .string(let text): string(text)
        case .number(let value): number(value)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        default: bytes.append(contentsOf: (try? RecordJSONWriter.line(value).dropLast()) ?? Array("null".utf8))
        }
    }

    private mutating func comma() {
        if !first { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func number(_ value: Double) {
        bytes.append(contentsOf: (RecordJSONWriter.numberText(value) ?? "null").utf8)
    }

    private mutating func string(_ text: String) {
        RecordJSONWriter.appendString(text, to: &bytes)
    }
}
