import IPP

/// A request that passed the common checks, with what every operation needs to know about it.
package struct IPPRequestContext: Sendable {
    let message: IPPMessage
    /// `host:port` for URIs built in responses, as the client addressed the printer
    /// (`HTTPRequest.uriAuthority(servicePort:)`: the Host field's name, an IPv6 literal in brackets, and port).
    let uriAuthority: String
    /// The requesting user: requesting-user-name, else `anonymous`.
    let user: String
    let client: ClientInfo
    /// printer-uri as the client sent it (or the printer part of job-uri).
    let printerURI: String
    /// The job targeted through job-uri or job-id, when any.
    let jobID: Int?
    /// The printer's static attributes as the request found them: taken from the printer once, under its lock, and
    /// one view of them for the whole request.
    package let attributes: PrinterAttributeCache
    /// Who the credentials say the client is (anonymous when none are asked for).
    package var identity: ClientIdentity = .anonymous
    /// Whether the printers ask for credentials (`--user`): then users see and change only their own jobs.
    package var requiresAuthentication = false
    /// Whether the request came over TLS: URIs in the answer then use ipps:// and https://.
    package var isEncrypted = false

    package init(
        message: IPPMessage, uriAuthority: String, user: String, client: ClientInfo, printerURI: String, jobID: Int?,
        attributes: PrinterAttributeCache
    ) {
        self.message = message
        self.uriAuthority = uriAuthority
        self.user = user
        self.client = client
        self.printerURI = printerURI
        self.jobID = jobID
        self.attributes = attributes
    }

    var operation: IPPOperation { message.operation }

    /// The operation attributes group.
    var operationAttributes: IPPAttributeGroup {
        message[group: .operationAttributes] ?? IPPAttributeGroup(tag: .operationAttributes)
    }

    /// The job attributes group, if the request has one.
    var jobAttributes: IPPAttributeGroup? { message[group: .jobAttributes] }

    /// An operation attribute by name.
    func attribute(_ name: String) -> IPPAttribute? { operationAttributes[name] }

    /// The scheme of IPP URIs in answers: the one the client used.
    var uriScheme: String { isEncrypted ? "ipps" : "ipp" }
    /// The scheme of web URIs in answers (printer-more-info, icons).
    var webScheme: String { isEncrypted ? "https" : "http" }

    /// attributes-natural-language: the language the client reads (en when it gives none).
    var naturalLanguage: String {
        if case .naturalLanguage(let language)? = attribute("attributes-natural-language")?.value { return language }
        return "en"
    }

    /// Whether the requester may see and change only their own jobs: credentials are asked for and they are
    /// not an admin.
    var seesOwnJobsOnly: Bool { requiresAuthentication && !identity.isAdmin }
}
