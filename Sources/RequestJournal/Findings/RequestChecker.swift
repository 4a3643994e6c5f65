import IPP

/// Finds what one IPP request does against RFC 8010, RFC 8011 and the printer it was for: the order of its groups
/// and attributes, its target, each value's tag, count and range, and (given the printer's attributes) values,
/// formats and operations the printer does not advertise. What only the answer or the document shows is found by
/// `findings(answer:)` and `findings(document:)`; what only a client's series of requests shows, by `Journal`.
///
/// The checker judges; it never changes a request or its answer. A strict printer refuses what it finds
/// (PrinterHTTP's `StrictRefusal`).
public struct RequestChecker: Sendable {
    /// The printer's attributes; nil checks only what holds whatever the printer.
    public let printer: (any AdvertisedAttributes)?

    public init(printer: (any AdvertisedAttributes)?) {
        self.printer = printer
    }

    /// Operations that act on one job: their target is a job (job-uri, or printer-uri with job-id fourth).
    static let jobOperations = OperationSet([
        .sendDocument, .sendURI, .cancelJob, .getJobAttributes, .holdJob, .releaseJob, .restartJob, .setJobAttributes,
        .closeJob, .cancelDocument, .getDocumentAttributes, .getDocuments, .setDocumentAttributes, .reprocessJob,
        .resumeJob, .promoteJob, .resubmitJob,
    ])

    /// Operations that create a job, or check one that would be: the job template attributes are theirs.
    static let jobCreationOperations = OperationSet([.printJob, .printURI, .validateJob, .createJob])

    /// Operations a client should name its user in (RFC 8011 section 4.2.1.1 and the like for each): those that
    /// create, change or end jobs.
    static let userOperations = OperationSet([
        .printJob, .printURI, .validateJob, .createJob, .sendDocument, .sendURI, .cancelJob, .holdJob, .releaseJob,
        .restartJob, .closeJob, .setJobAttributes, .cancelMyJobs,
    ])

    /// Operations that carry a document, or say what one will be.
    static let documentOperations = OperationSet([
        .printJob, .printURI, .validateJob, .sendDocument, .sendURI, .validateDocument,
    ])

    /// Every finding the request itself shows.
    public func findings(in message: IPPMessage) -> [ClientFinding] {
        var found: [ClientFinding] = []
        checkHeader(message, into: &found)
        guard let operation = message.groups.first(where: { $0.tag == .operationAttributes }),
            !operation.attributes.isEmpty
        else {
            found.append(
                ClientFinding(
                    .operationAttributesOrder,
                    "the request has no operation attributes: attributes-charset, attributes-natural-language and "
                        + "the target must come first"))
            return found
        }
        checkOrder(of: operation, in: message, into: &found)
        checkUser(operation, in: message, into: &found)
        for group in message.groups where group.tag == .operationAttributes || group.tag == .jobAttributes {
            checkAttributes(of: group, in: message, into: &found)
        }
        if let printer { checkAdvertised(message, printer: printer, into: &found) }
        return found
    }

    // MARK: - The message's header and groups (RFC 8010 section 3.1, RFC 8011 sections 4.1.2, 4.1.8)

    private func checkHeader(_ message: IPPMessage, into found: inout [ClientFinding]) {
        let version = message.version.description
        if message.version.major != 1 && message.version.major != 2 {
            found.append(ClientFinding(.ippVersion, "IPP version \(version) is neither 1.x nor 2.x"))
        } else if let supported = printer?.advertised("ipp-versions-supported"),
            !supported.values.contains(.keyword(version))
        {
            found.append(
                ClientFinding(
                    .ippVersion,
                    "IPP version \(version) is not in ipp-versions-supported: \(Self.list(supported))",
                    attribute: "ipp-versions-supported"))
        }
        if message.requestID <= 0 {
            found.append(ClientFinding(.requestID, "request-id is \(message.requestID); it must be 1 or more"))
        }
        // One finding for the groups: the first thing out of order.
        var seen: UInt64 = 0  // a bit per group tag (0x01-0x0F)
        var previous: UInt8 = 0
        for (index, group) in message.groups.enumerated() {
            var problem: String?
            if index == 0 && group.tag != .operationAttributes {
                problem = "the first attribute group is \(group.tag), not operation-attributes-tag"
            } else if group.tag.rawValue < previous {
                problem = "\(group.tag) comes after a group that must follow it"
            } else if seen & (1 << UInt64(group.tag.rawValue & 0x3F)) != 0 {
                problem = "\(group.tag) appears more than once"
            }
            if let problem {
                found.append(ClientFinding(.groupOrder, problem))
                break
            }
            seen |= 1 << UInt64(group.tag.rawValue & 0x3F)
            previous = group.tag.rawValue
        }
    }

    // MARK: - The operation attributes' order and target (RFC 8011 sections 4.1.4, 4.1.5)

    private func checkOrder(of group: IPPAttributeGroup, in message: IPPMessage, into found: inout [ClientFinding]) {
        let names = group.attributes.map(\.name)
        if names.first != "attributes-charset" {
            found.append(
                ClientFinding(
                    .operationAttributesOrder,
                    "attributes-charset must be the first operation attribute; "
                        + Self.position(of: "attributes-charset", in: names),
                    attribute: "attributes-charset"))
        } else if let charset = group.attributes[0].value?.stringValue,
            let supported = printer?.advertised("charset-supported"),
            !supported.values.contains(.charset(charset)),
            !supported.values.contains(where: { $0.stringValue?.lowercased() == charset.lowercased() })
        {
            found.append(
                ClientFinding(
                    .charset, "attributes-charset \(charset) is not in charset-supported: \(Self.list(supported))",
                    attribute: "attributes-charset"))
        }
        if names.count < 2 || names[1] != "attributes-natural-language" {
            found.append(
                ClientFinding(
                    .operationAttributesOrder,
                    "attributes-natural-language must be the second operation attribute; "
                        + Self.position(of: "attributes-natural-language", in: names),
                    attribute: "attributes-natural-language"))
        }
        // A target out of place because charset or language is missing or misplaced is that one fault, not two.
        let headerInOrder = found.last?.rule != .operationAttributesOrder
        let isJobOperation = Self.jobOperations.contains(message.operation)
        if let index = names.firstIndex(of: "job-uri") {
            if index != 2 && headerInOrder {
                found.append(
                    ClientFinding(
                        .targetOrder, "job-uri must be the third operation attribute; it is the \(Self.ordinal(index))",
                        attribute: "job-uri"))
            }
        } else if let index = names.firstIndex(of: "printer-uri") {
            if index != 2 && headerInOrder {
                found.append(
                    ClientFinding(
                        .targetOrder,
                        "printer-uri must be the third operation attribute; it is the \(Self.ordinal(index))",
                        attribute: "printer-uri"))
            }
            if isJobOperation {
                if let jobIndex = names.firstIndex(of: "job-id") {
                    if jobIndex != index + 1 {
                        found.append(
                            ClientFinding(
                                .targetOrder,
                                "job-id must follow printer-uri as the fourth operation attribute; "
                                    + "it is the \(Self.ordinal(jobIndex))",
                                attribute: "job-id"))
                    }
                } else {
                    found.append(
                        ClientFinding(
                            .missingOperationAttribute,
                            "\(message.operation) names its job by printer-uri but sends no job-id", attribute: "job-id"
                        ))
                }
            }
        } else {
            found.append(
                ClientFinding(
                    .missingOperationAttribute, "\(message.operation) has no printer-uri or job-uri: no target",
                    attribute: "printer-uri"))
        }
        if message.operation == .sendDocument || message.operation == .sendURI, !names.contains("last-document") {
            found.append(
                ClientFinding(
                    .missingOperationAttribute, "\(message.operation) has no last-document", attribute: "last-document",
                    reference: message.operation == .sendDocument ? "RFC 8011 §4.3.1.1" : "RFC 8011 §4.3.2"))
        }
    }

    private func checkUser(_ group: IPPAttributeGroup, in message: IPPMessage, into found: inout [ClientFinding]) {
        var wanted = Self.userOperations.contains(message.operation)
        if message.operation == .getJobs, group["my-jobs"]?.value == .boolean(true) { wanted = true }
        guard wanted, group["requesting-user-name"] == nil else { return }
        found.append(
            ClientFinding(
                .requestingUserName, "\(message.operation) has no requesting-user-name: the job's owner is unknown",
                attribute: "requesting-user-name"))
    }

    // MARK: - Each attribute's syntax, count, range and group (RFC 8011 sections 4.1.3, 5.1, 5.2)

    private func checkAttributes(
        of group: IPPAttributeGroup, in message: IPPMessage, into found: inout [ClientFinding]
    ) {
        // A set: a group of 100,000 attributes is a scan of 100,000, not of 100,000 lists.
        var seen: Set<String> = []
        seen.reserveCapacity(group.attributes.count)
        let isOperationGroup = group.tag == .operationAttributes
        for attribute in group.attributes {
            guard seen.insert(attribute.name).inserted else {
                found.append(
                    ClientFinding(
                        .duplicateAttribute, "\(attribute.name) appears more than once in \(group.tag)",
                        attribute: attribute.name))
                continue
            }
            checkURIs(of: attribute, into: &found)
            guard let syntax = AttributeSyntax.known[attribute.name] else { continue }
            if Self.jobCreationOperations.contains(message.operation),
                (syntax.group == .job) == isOperationGroup
            {
                let belongs = syntax.group == .job ? "the job attributes group" : "the operation attributes group"
                found.append(
                    ClientFinding(
                        .wrongGroup, "\(attribute.name) belongs in \(belongs), not \(group.tag)",
                        attribute: attribute.name))
            }
            checkValues(of: attribute, syntax: syntax, into: &found)
        }
    }

    /// A `uri` value that is no URI (RFC 3986 characters only), whatever the attribute: the printer refuses the
    /// request (`IPPRequestValidator.checkURIs`).
    private func checkURIs(of attribute: IPPAttribute, into found: inout [ClientFinding]) {
        for case .uri(let text) in attribute.values {
            guard let problem = URISyntax.problem(in: text) else { continue }
            found.append(
                ClientFinding(.uriSyntax, "\(attribute.name) is not a URI: \(problem)", attribute: attribute.name))
            return
        }
    }

    private func checkValues(of attribute: IPPAttribute, syntax: AttributeSyntax, into found: inout [ClientFinding]) {
        let name = attribute.name
        if attribute.values.count > 1 && !syntax.multiValued {
            found.append(
                ClientFinding(
                    .valueCount, "\(name) takes one value; it was sent \(attribute.values.count)", attribute: name))
        }
        for value in attribute.values {
            guard syntax.tags.contains(value.tag) else {
                let allowed = syntax.tags.map(\.description).sorted().joined(separator: " or ")
                found.append(
                    ClientFinding(
                        .valueTag, "\(name) was sent as \(value.tag); its syntax is \(allowed)", attribute: name))
                return
            }
            if case .keyword(let word) = value, !IPPKeyword.isValid(word) {
                found.append(
                    ClientFinding(
                        .keywordSyntax,
                        "\(name) value \"\(word)\" is no keyword: lower-case letters, digits, '-', '_' and '.', "
                            + "starting with a letter",
                        attribute: name))
            }
            guard let range = syntax.range else { continue }
            switch value {
            case .integer(let number) where !range.contains(number):
                found.append(
                    ClientFinding(
                        .valueRange, "\(name) is \(number); it must be \(Self.describe(range))", attribute: name,
                        reference: syntax.rangeReference))
            case .rangeOfInteger(let pages) where !range.contains(pages.lowerBound):
                found.append(
                    ClientFinding(
                        .valueRange, "\(name) \(pages.lowerBound)-\(pages.upperBound) starts before 1", attribute: name,
                        reference: syntax.rangeReference))
            case .other(.rangeOfInteger, let bytes):
                // The decoder keeps a reversed range as its bytes: a range must not end before it starts.
                let bounds = JournaledValue.reversedRange(bytes).map { "\($0.lower)-\($0.upper) " } ?? ""
                found.append(
                    ClientFinding(
                        .valueRange, "\(name) \(bounds)ends before it starts", attribute: name,
                        reference: syntax.rangeReference))
            default:
                break
            }
        }
    }

    // MARK: - Wording

    /// "it is the fifth" or "it is missing".
    static func position(of name: String, in names: [String]) -> String {
        guard let index = names.firstIndex(of: name) else { return "it is missing" }
        return "it is the \(ordinal(index))"
    }

    static func ordinal(_ index: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        return index < words.count ? words[index] : "\(index + 1)th"
    }

    static func describe(_ range: ClosedRange<Int32>) -> String {
        range.upperBound == Int32.max ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)"
    }

    /// The most values a finding lists of a -supported attribute before it says how many there are.
    static let listedValues = 8

    /// A printer attribute's values as a finding lists them: `na_letter_8.5x11in, iso_a4_210x297mm, ...`.
    public static func list(_ attribute: IPPAttribute) -> String {
        let texts = attribute.values.map { JournaledValue($0, attribute: attribute.name).matchText ?? "\($0.tag)" }
        guard texts.count > listedValues else { return texts.joined(separator: ", ") }
        return texts.prefix(listedValues).joined(separator: ", ") + ", ... (\(texts.count) in all)"
    }
}
