import IPP

/// A response under construction: status, message, unsupported attributes and the groups after them.
package struct IPPResponse: Sendable {
    package var status: IPPStatus
    var statusMessage: String?
    /// Operation attributes after attributes-charset, attributes-natural-language and status-message.
    var operationAttributes: [IPPAttribute] = []
    package var unsupported: [IPPAttribute] = []
    package var groups: [IPPAttributeGroup] = []
    /// Pre-encoded attributes appended as a final printer-attributes group (Get-Printer-Attributes).
    package var encodedPrinterAttributes: [UInt8]?
    /// Pre-encoded printer-attributes groups, one per printer (PWG 5100.22 Get-Printers), after the others.
    package var encodedPrinterGroups: [[UInt8]] = []

    package init(status: IPPStatus = .successfulOK, message: String? = nil) {
        self.status = status
        self.statusMessage = message
    }

    /// An error response with a message a person can act on.
    package static func error(_ status: IPPStatus, _ message: String) -> IPPResponse {
        IPPResponse(status: status, message: message)
    }

    /// Encodes the response to a request (RFC 8011 section 4.1.4: every response starts with
    /// attributes-charset and attributes-natural-language).
    package func encode(version: IPPVersion, requestID: Int32) -> [UInt8] {
        var head = IPPMessage(version: version, status: status, requestID: requestID)
        var operation = IPPAttributeGroup(tag: .operationAttributes)
        operation.append("attributes-charset", .charset("utf-8"))
        operation.append("attributes-natural-language", .naturalLanguage("en"))
        if let statusMessage { operation.append("status-message", .text(String(statusMessage.prefix(255)))) }
        operation.attributes += operationAttributes
        head.groups.append(operation)
        if !unsupported.isEmpty {
            head.groups.append(IPPAttributeGroup(tag: .unsupportedAttributes, attributes: unsupported))
        }
        head.groups += groups
        var bytes = IPPEncoder.encode(head)
        // One allocation for the whole answer: the pre-encoded groups are most of it.
        bytes.reserveCapacity(
            bytes.count + (encodedPrinterAttributes?.count ?? 0) + encodedPrinterGroups.reduce(0) { $0 + $1.count + 1 }
                + 2)
        if let encodedPrinterAttributes {
            bytes.removeLast()  // end-of-attributes
            bytes.append(IPPTag.printerAttributes.rawValue)
            bytes += encodedPrinterAttributes
            bytes.append(IPPTag.endOfAttributes.rawValue)
        }
        if !encodedPrinterGroups.isEmpty {
            bytes.removeLast()
            for group in encodedPrinterGroups {
                bytes.append(IPPTag.printerAttributes.rawValue)
                bytes += group
            }
            bytes.append(IPPTag.endOfAttributes.rawValue)
        }
        return bytes
    }
}

/// What an operation produced: a response now, or a document to receive first.
package enum OperationOutcome {
    case response(IPPResponse)
    case receiveDocument(DocumentReception)
}

/// A document the request carries after its attributes; the HTTP side streams it into `writer`, then asks
/// `complete` for the response.
package struct DocumentReception {
    package let writer: DocumentWriter
    package let complete: (Result<DocumentRecord, DocumentError>) -> IPPResponse
}
