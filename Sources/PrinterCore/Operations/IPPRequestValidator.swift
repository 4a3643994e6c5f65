import IPP

/// The checks every request goes through before its operation (RFC 8011 sections 4.1.1, 4.1.4, 4.1.8, 4.2):
/// version, request-id, group order, attributes-charset and attributes-natural-language first, a target.
package enum IPPRequestValidator {
    /// The charsets the printer accepts (charset-supported).
    static let supportedCharsets: Set<String> = ["utf-8", "us-ascii"]

    /// What the target attributes name.
    package struct Target: Sendable {
        /// printer-uri, or job-uri without its job id.
        package var printerURI: String
        /// The path part of `printerURI`.
        package var printerPath: String
        /// The job id from job-uri, or from job-id with printer-uri.
        package var jobID: Int?
    }

    /// Checks the request; returns its target, or the error response to send.
    package static func validate(_ message: IPPMessage) -> Result<Target, IPPResponseError> {
        if let error = checkHeader(message) { return .failure(error) }
        if let error = checkURIs(message) { return .failure(error) }
        let operation = message.groups[0]
        let charset = operation.attributes[0]
        guard case .charset(let charsetName)? = charset.value else {
            return .failure(IPPResponseError(.clientErrorBadRequest, "The request has no attributes-charset."))
        }
        let target: Target
        if let jobURI = operation["job-uri"] {
            guard case .uri(let uri)? = jobURI.value, let parsed = parseJobURI(uri) else {
                return .failure(IPPResponseError(.clientErrorBadRequest, "job-uri is not a valid job URI."))
            }
            target = parsed
        } else if let printerURI = operation["printer-uri"] {
            guard case .uri(let uri)? = printerURI.value, let path = path(of: uri) else {
                return .failure(IPPResponseError(.clientErrorBadRequest, "printer-uri is not a valid URI."))
            }
            var jobID: Int?
            if let idAttribute = operation["job-id"] {
                guard case .integer(let id)? = idAttribute.value, id > 0 else {
                    return .failure(IPPResponseError(.clientErrorBadRequest, "job-id must be a positive integer."))
                }
                jobID = Int(id)
            }
            target = Target(printerURI: uri, printerPath: path, jobID: jobID)
        } else {
            return .failure(IPPResponseError(.clientErrorBadRequest, "The request has no printer-uri or job-uri."))
        }
        guard supportedCharsets.contains(charsetName.lowercased()) else {
            var error = IPPResponseError(
                .clientErrorCharsetNotSupported, "Charset \(charsetName) is not supported; use utf-8.")
            error.unsupported = [charset]
            return .failure(error)
        }
        return .success(target)
    }

    /// The checks of every request, whatever its target (RFC 8011 section 4.1): version, request-id, group
    /// order, attributes-charset and attributes-natural-language first. Nil when they pass.
    package static func checkHeader(_ message: IPPMessage) -> IPPResponseError? {
        guard message.version.major == 1 || message.version.major == 2 else {
            return IPPResponseError(
                .serverErrorVersionNotSupported, "IPP version \(message.version) is not supported; use 1.x or 2.x.")
        }
        guard message.requestID > 0 else {
            return IPPResponseError(.clientErrorBadRequest, "The request-id must be greater than zero.")
        }
        var previous: UInt8 = 0
        for group in message.groups {
            guard group.tag.rawValue >= previous else {
                return IPPResponseError(.clientErrorBadRequest, "Attribute groups are out of order.")
            }
            previous = group.tag.rawValue
        }
        guard let operation = message.groups.first, operation.tag == .operationAttributes,
            operation.attributes.count >= 2
        else {
            return IPPResponseError(
                .clientErrorBadRequest,
                "The request must start with attributes-charset and attributes-natural-language.")
        }
        let charset = operation.attributes[0]
        let language = operation.attributes[1]
        guard charset.name == "attributes-charset", case .charset? = charset.value,
            charset.values.count == 1,
            language.name == "attributes-natural-language", case .naturalLanguage? = language.value,
            language.values.count == 1
        else {
            return IPPResponseError(
                .clientErrorBadRequest,
                "The first two attributes must be attributes-charset and attributes-natural-language.")
        }
        return nil
    }

    /// The first `uri` value of the request, in any group or collection, that is no URI (`URISyntax`): refused
    /// before any operation could build a request line, a header or a file name from it. Nil when all are URIs.
    package static func checkURIs(_ message: IPPMessage) -> IPPResponseError? {
        for group in message.groups {
            if let error = checkURIs(in: group.attributes) { return error }
        }
        return nil
    }

    private static func checkURIs(in attributes: [IPPAttribute], depth: Int = 0) -> IPPResponseError? {
        for attribute in attributes {
            for value in attribute.values {
                switch value {
                case .uri(let text):
                    guard let problem = URISyntax.problem(in: text) else { continue }
                    var error = IPPResponseError(
                        .clientErrorBadRequest, "\(attribute.name) is not a URI: \(problem).")
                    error.unsupported = [attribute]
                    return error
                case .collection(let members) where depth < IPPLimits.maximumCollectionDepth:
                    if let error = checkURIs(in: members, depth: depth + 1) { return error }
                default:
                    continue
                }
            }
        }
        return nil
    }

    /// The path of an ipp, ipps, http or https URI.
    package static func path(of uri: String) -> String? {
        // Every request names its printer by URI: a scan of bytes, not a search of characters.
        let bytes = uri.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8),
            ["ipp", "ipps", "http", "https"].contains(uri[..<colon].lowercased())
        else { return nil }
        let authority = bytes.index(colon, offsetBy: 3)
        guard let slash = bytes[authority...].firstIndex(of: UInt8(ascii: "/")) else { return "/" }
        let end = bytes[slash...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = String(uri[slash..<end])
        return path.removingPercentEncodingSafely()
    }

    /// Splits `ipp://host/ipp/print/12` into the printer's URI and path and the job id.
    static func parseJobURI(_ uri: String) -> Target? {
        guard let path = path(of: uri), let slash = path.lastIndex(of: "/"),
            let id = Int(path[path.index(after: slash)...]), id > 0,
            let uriSlash = uri.lastIndex(of: "/")
        else { return nil }
        return Target(printerURI: String(uri[..<uriSlash]), printerPath: String(path[..<slash]), jobID: id)
    }
}

/// An error status with its message and the attributes to return as unsupported.
package struct IPPResponseError: Error, Sendable {
    var status: IPPStatus
    var message: String
    var unsupported: [IPPAttribute] = []

    package init(_ status: IPPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    package var response: IPPResponse {
        var response = IPPResponse.error(status, message)
        response.unsupported = unsupported
        return response
    }
}

extension String {
    /// Percent-decoding that leaves malformed escapes as they are.
    func removingPercentEncodingSafely() -> String {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
