import IPP
import PrintModel

/// A job creation request after its operation attributes and job ticket were checked.
struct CheckedJobRequest: Sendable {
    var documentFormat: DocumentFormat
    var compression: String
    var ticket: JobTicketValidator.Result
    /// Operation attributes to report as unsupported (ignored).
    var unsupportedOperationAttributes: [IPPAttribute] = []

    /// A successful response, with the ignored attributes and the matching status.
    func response() -> IPPResponse {
        var response = IPPResponse()
        response.unsupported = unsupportedOperationAttributes + ticket.unsupported
        if !response.unsupported.isEmpty {
            response.status = .successfulOKIgnoredOrSubstitutedAttributes
            response.statusMessage = "Some attributes were ignored."
        }
        return response
    }
}

extension Printer {
    /// Checks the operation attributes and job ticket of Print-Job, Validate-Job and Create-Job.
    func checkJobRequest(_ context: IPPRequestContext, forDocument: Bool) -> Result<CheckedJobRequest, IPPResponseError>
    {
        var checked: CheckedJobRequest
        switch checkDocumentAttributes(context) {
        case .success(let value): checked = value
        case .failure(let error): return .failure(error)
        }
        for name in ["job-name", "requesting-user-name", "document-name"] {
            guard let attribute = context.attribute(name) else { continue }
            let isName: Bool
            switch attribute.value {
            case .name?, .nameWithLanguage?: isName = attribute.values.count == 1
            default: isName = false
            }
            if !isName {
                var error = IPPResponseError(
                    .clientErrorAttributesOrValuesNotSupported, "\(name) must be a single name value.")
                error.unsupported = [attribute]
                return .failure(error)
            }
        }
        var fidelity = false
        if let attribute = context.attribute("ipp-attribute-fidelity") {
            guard case .boolean(let value)? = attribute.value, attribute.values.count == 1 else {
                var error = IPPResponseError(.clientErrorBadRequest, "ipp-attribute-fidelity must be a boolean.")
                error.unsupported = [attribute]
                return .failure(error)
            }
            fidelity = value
        }
        for name in ["job-k-octets", "job-impressions", "job-media-sheets"] {
            guard let attribute = context.attribute(name) else { continue }
            guard case .integer(let value)? = attribute.value, value >= 0 else {
                checked.unsupportedOperationAttributes.append(attribute)
                continue
            }
            if let supported = cache["\(name)-supported"],
                !JobTicketValidator(printer: cache).isSupported(.integer(value), of: name, by: supported)
            {
                checked.unsupportedOperationAttributes.append(attribute)
            }
        }
        switch checkEnterpriseAttributes(context) {
        case .success(let ignored): checked.unsupportedOperationAttributes += ignored
        case .failure(let error): return .failure(error)
        }
        checked.ticket = JobTicketValidator(printer: cache).validate(context.jobAttributes)
        if fidelity && !checked.ticket.unsupported.isEmpty {
            var error = IPPResponseError(
                .clientErrorAttributesOrValuesNotSupported,
                "Unsupported job attributes with ipp-attribute-fidelity: "
                    + checked.ticket.unsupported.map(\.name).joined(separator: ", ") + ".")
            error.unsupported = checked.ticket.unsupported
            return .failure(error)
        }
        // A strict printer ignores nothing: what a lenient one reports as ignored, it refuses.
        let ignored = checked.unsupportedOperationAttributes + checked.ticket.unsupported
        if isStrict && !ignored.isEmpty {
            var error = IPPResponseError(
                .clientErrorAttributesOrValuesNotSupported,
                "This printer is strict and does not ignore unsupported attributes: "
                    + ignored.map(\.name).joined(separator: ", ") + ".")
            error.unsupported = ignored
            return .failure(error)
        }
        return .success(checked)
    }

    /// Checks document-format and compression (RFC 8011 sections 4.1.7, 5.4.32).
    func checkDocumentAttributes(_ context: IPPRequestContext) -> Result<CheckedJobRequest, IPPResponseError> {
        var format = DocumentFormat(
            rawValue: cache["document-format-default"]?.value?.stringValue ?? "application/octet-stream")
        if let attribute = context.attribute("document-format") {
            guard case .mimeMediaType(let value)? = attribute.value, attribute.values.count == 1 else {
                var error = IPPResponseError(.clientErrorBadRequest, "document-format must be a mimeMediaType.")
                error.unsupported = [attribute]
                return .failure(error)
            }
            let supported = cache["document-format-supported"]?.values.compactMap(\.stringValue) ?? []
            guard supported.contains(where: { $0.caseInsensitiveCompare(value) }) else {
                var error = IPPResponseError(
                    .clientErrorDocumentFormatNotSupported,
                    "Document format \(value) is not supported; supported: \(supported.joined(separator: ", ")).")
                error.unsupported = [attribute]
                return .failure(error)
            }
            format = DocumentFormat(rawValue: value.lowercased())
        }
        var compression = "none"
        if let attribute = context.attribute("compression") {
            let supported = cache["compression-supported"]?.values.compactMap(\.stringValue) ?? ["none"]
            guard case .keyword(let value)? = attribute.value, attribute.values.count == 1, supported.contains(value)
            else {
                var error = IPPResponseError(
                    .clientErrorCompressionNotSupported,
                    "Compression is not supported; supported: \(supported.joined(separator: ", ")).")
                error.unsupported = [attribute]
                return .failure(error)
            }
            compression = value
        }
        return .success(
            CheckedJobRequest(documentFormat: format, compression: compression, ticket: JobTicketValidator.Result()))
    }
}

extension String {
    /// ASCII case-insensitive equality.
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
