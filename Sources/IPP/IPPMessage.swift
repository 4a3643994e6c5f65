/// An IPP request or response without its document data (RFC 8010 section 3.1.1).
public struct IPPMessage: Hashable, Sendable {
    public var version: IPPVersion
    /// The operation-id of a request or the status-code of a response.
    public var code: UInt16
    public var requestID: Int32
    public var groups: [IPPAttributeGroup]

    public init(version: IPPVersion, code: UInt16, requestID: Int32, groups: [IPPAttributeGroup] = []) {
        self.version = version
        self.code = code
        self.requestID = requestID
        self.groups = groups
    }

    /// A request for an operation.
    public init(
        version: IPPVersion = .v2_0, operation: IPPOperation, requestID: Int32, groups: [IPPAttributeGroup] = []
    ) {
        self.init(version: version, code: operation.rawValue, requestID: requestID, groups: groups)
    }

    /// A response with a status.
    public init(version: IPPVersion, status: IPPStatus, requestID: Int32, groups: [IPPAttributeGroup] = []) {
        self.init(version: version, code: status.rawValue, requestID: requestID, groups: groups)
    }

    /// The code read as a request's operation.
    public var operation: IPPOperation { IPPOperation(rawValue: code) }

    /// The code read as a response's status.
    public var status: IPPStatus { IPPStatus(rawValue: code) }

    /// The first group with the given tag.
    public subscript(group tag: IPPTag) -> IPPAttributeGroup? {
        groups.first { $0.tag == tag }
    }

    /// The first attribute with this name in the first group with the given tag.
    public func attribute(_ name: String, in tag: IPPTag) -> IPPAttribute? {
        self[group: tag]?[name]
    }
}
