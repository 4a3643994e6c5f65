import IPP
import PrintModel

/// What an entry holds in memory, estimated once when it is recorded: the journal's memory is bounded by these
/// (`Journal.Settings.byteLimit`) as well as by the number of entries. The estimate counts each value's own size
/// and the heap storage of its strings, byte arrays and lists (with a header each); groups shared with another
/// entry (a polling client's, `RequestFindingsMemo`) are counted for each, so it errs towards too much.
extension JournalEntry {
    /// The estimated bytes the entry holds.
    public var retainedBytes: Int {
        var total = MemoryLayout<JournalEntry>.stride
        total += RetainedBytes.strings(time, client.address, client.userAgent, user, printer, http.method, http.path)
        total += RetainedBytes.strings(problem)
        if let ipp {
            total += RetainedBytes.strings(ipp.version, ipp.operation, ipp.status)
            total += ipp.requestGroups.retainedBytes
            total += RetainedBytes.list(ipp.unsupported, each: RetainedBytes.attribute)
            if let document = ipp.document {
                total += RetainedBytes.strings(document.format, document.detectedFormat, document.sha256)
            }
        }
        if let findings {
            total += RetainedBytes.list(findings) { finding in
                MemoryLayout<ClientFinding>.stride
                    + RetainedBytes.strings(finding.reference, finding.message, finding.attribute)
            }
        }
        return total
    }
}

extension RequestGroups {
    /// The estimated bytes of the groups, in the form they are kept.
    var retainedBytes: Int {
        switch form {
        case .decoded(let groups):
            RetainedBytes.list(groups) { group in
                MemoryLayout<IPPAttributeGroup>.stride
                    + RetainedBytes.list(group.attributes, each: RetainedBytes.attribute)
            }
        case .journaled(let groups):
            RetainedBytes.list(groups) { group in
                MemoryLayout<JournaledGroup>.stride + RetainedBytes.strings(group.tag)
                    + RetainedBytes.list(group.attributes, each: RetainedBytes.attribute)
            }
        }
    }
}

/// The estimates `JournalEntry.retainedBytes` adds up.
enum RetainedBytes {
    /// A heap allocation's header and rounding: an array's storage, a string too long to be kept inline.
    static let allocationOverhead = 32
    /// The longest string Swift keeps inline, without storage of its own.
    static let inlineStringBytes = 15

    static func strings(_ texts: String?...) -> Int {
        texts.reduce(0) { total, text in
            guard let count = text?.utf8.count, count > inlineStringBytes else { return total }
            return total + count + allocationOverhead
        }
    }

    static func bytes(_ bytes: [UInt8]) -> Int {
        bytes.isEmpty ? 0 : bytes.count + allocationOverhead
    }

    /// A list's storage and what each of its elements holds (`each` counts an element's own size too).
    static func list<Element>(_ elements: [Element], each: (Element) -> Int) -> Int {
        elements.isEmpty ? 0 : elements.reduce(allocationOverhead) { $0 + each($1) }
    }

    static func attribute(_ attribute: IPPAttribute) -> Int {
        MemoryLayout<IPPAttribute>.stride + strings(attribute.name) + list(attribute.values, each: value)
    }

    static func value(_ value: IPPValue) -> Int {
        let held: Int =
            switch value {
            case .octetString(let data), .other(_, let data): bytes(data)
            case .collection(let members): list(members, each: attribute)
            case .textWithLanguage(let language, let text), .nameWithLanguage(let language, let text):
                strings(language, text)
            default: strings(value.stringValue)
            }
        return MemoryLayout<IPPValue>.stride + held
    }

    static func attribute(_ attribute: JournaledAttribute) -> Int {
        MemoryLayout<JournaledAttribute>.stride + strings(attribute.name) + list(attribute.values, each: value)
    }

    static func value(_ value: JournaledValue) -> Int {
        var held = strings(value.tag, value.keyword, value.language, value.hex)
        if let json = value.value { held += self.json(json) }
        if let members = value.members { held += list(members, each: attribute) }
        return MemoryLayout<JournaledValue>.stride + held
    }

    static func json(_ value: JSONValue) -> Int {
        switch value {
        case .string(let text): strings(text)
        case .array(let elements): list(elements) { MemoryLayout<JSONValue>.stride + json($0) }
        case .object(let members):
            members.reduce(allocationOverhead) {
                $0 + MemoryLayout<JSONValue>.stride + strings($1.key) + json($1.value)
            }
        default: 0
        }
    }
}
