import Dispatch
import IPP

extension Printer {
    /// Get-Printer-Attributes (RFC 8011 section 4.2.5): static attributes come pre-encoded from the cache,
    /// the printer's state and the URIs built from the Host the client used are added to them; the whole answer
    /// is kept for the next request that asks the same at the same moment (`PrinterAttributeAnswers`).
    package func getPrinterAttributes(_ context: IPPRequestContext) -> IPPResponse {
        var response = IPPResponse()
        let current = context.attributes
        if let format = context.attribute("document-format") {
            let supported = current["document-format-supported"]?.values ?? []
            if !supported.contains(where: { $0.stringValue == format.value?.stringValue }) {
                response.status = .successfulOKIgnoredOrSubstitutedAttributes
                response.unsupported.append(format)
            }
        }
        let requestedAttribute = context.attribute("requested-attributes")
        let question = PrinterAttributeAnswers.Question(
            requested: requestedAttribute?.values.compactMap(\.stringValue) ?? [],
            authority: context.uriAuthority, isEncrypted: context.isEncrypted,
            language: PrinterStrings.language(for: context.naturalLanguage))
        let now = WallClock.now()
        if let answer = answers.answer(to: question, at: moment(statusChanges.revision, current, now)) {
            response.encodedPrinterAttributes = answer
            return response
        }
        // One look at the status under its lock, and the revision it is.
        let (status, revision) = self.status.withLock { ($0, $0.changes.revision) }
        let requested = RequestedAttributes(requestedAttribute)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(current.allEncoded.count + 4096)
        if requested.isAllOnly {
            bytes += current.allEncoded
            for attribute in dynamicAttributes(context, status: status, now: now) {
                IPPEncoder.append(attribute, to: &bytes)
            }
        } else {
            for entry in current.entries where requested.includes(entry.name) {
                bytes += entry.encoded
            }
            for attribute in dynamicAttributes(context, status: status, now: now)
            where requested.includes(attribute.name) {
                IPPEncoder.append(attribute, to: &bytes)
            }
        }
        answers.store(bytes, to: question, at: moment(revision, current, now))
        response.encodedPrinterAttributes = bytes
        return response
    }

    /// What an answer made now from a status revision and static attributes depends on.
    private func moment(_ revision: UInt64, _ attributes: PrinterAttributeCache, _ now: Double)
        -> PrinterAttributeAnswers.Moment
    {
        PrinterAttributeAnswers.Moment(
            revision: revision, attributes: attributes, tenth: Int64((now * 10).rounded(.down)),
            upTime: upTime(at: now))
    }

    /// The attributes that change with the printer's state or with the client's host name.
    func dynamicAttributes(_ context: IPPRequestContext, status: PrinterStatus, now: Double) -> [IPPAttribute] {
        let state = status.state
        let reasons = PrinterStateReason.keywords(of: status.reasons)
        let alerts = PrinterAlerts.alerts(for: status.reasons)
        let web = "\(context.webScheme)://\(context.uriAuthority)"
        let security = configuration.security
        let schemes = security.schemes(clientUsedTLS: context.isEncrypted)
        let message: String
        switch state {
        case .idle: message = "Idle."
        case .processing: message = "Printing."
        case .stopped: message = "Stopped: \(reasons.joined(separator: ", "))."
        }
        return [
            IPPAttribute(
                name: "printer-uri-supported",
                values: schemes.map { .uri(printerURI(authority: context.uriAuthority, scheme: $0.scheme)) }),
            IPPAttribute(name: "uri-security-supported", values: schemes.map { .keyword($0.security) }),
            IPPAttribute(
                name: "uri-authentication-supported",
                values: schemes.map { _ in .keyword(security.authenticationKeyword) }),
            IPPAttribute("printer-name", .name(configuration.name)),
            IPPAttribute("printer-dns-sd-name", .name(status.dnsSDName ?? configuration.name)),
            IPPAttribute("printer-uuid", .uri(configuration.uuid)),
            IPPAttribute("printer-state", .enumValue(state.rawValue)),
            IPPAttribute(name: "printer-state-reasons", values: reasons.map { .keyword($0) }),
            IPPAttribute("printer-state-message", .text(message)),
            IPPAttribute("printer-is-accepting-jobs", .boolean(status.acceptsJobs)),
            IPPAttribute("printer-up-time", .integer(upTime(at: now))),
            IPPAttribute("printer-current-time", .dateTime(IPPDateTime(secondsSince1970: now))),
            IPPAttribute("printer-state-change-time", .integer(upTime(of: status.stateChangeTime))),
            IPPAttribute(
                "printer-state-change-date-time", .dateTime(IPPDateTime(secondsSince1970: status.stateChangeTime))),
            IPPAttribute("printer-config-change-time", .integer(upTime(of: status.configChangeTime))),
            IPPAttribute(
                "printer-config-change-date-time", .dateTime(IPPDateTime(secondsSince1970: status.configChangeTime))),
            IPPAttribute("queued-job-count", .integer(Int32(clamping: status.activeJobCount))),
            IPPAttribute("printer-message-from-operator", .text(status.messageFromOperator)),
        ] + status.device.attributes + [
            IPPAttribute(
                name: "printer-alert",
                values: alerts.map { .octetString(Array($0.code.utf8)) }),
            IPPAttribute(
                name: "printer-alert-description",
                values: alerts.map { .text($0.description) }),
            IPPAttribute("printer-more-info", .uri("\(web)/")),
            IPPAttribute("printer-supply-info-uri", .uri("\(web)/#supplies")),
            IPPAttribute(
                name: "printer-icons",
                values: PrinterIcon.sizes.map { .uri("\(web)\(configuration.resourcePath)/icon-\($0).png") }),
            IPPAttribute(
                "printer-strings-uri",
                .uri(
                    web
                        + PrinterStrings.path(
                            resourcePath: configuration.resourcePath,
                            language: PrinterStrings.language(for: context.naturalLanguage)))),
        ]
    }

    /// The DNS-SD service name (the printer name until an advertiser renames it).
    var dnsSDName: String {
        status.withLock { $0.dnsSDName } ?? configuration.name
    }

    /// How long identify-printer-requested shows after Identify-Printer, in seconds.
    static let identifyDuration = 3.0

    /// Identify-Printer (PWG 5100.13 section 6.1): logs the request and shows identify-printer-requested briefly.
    func identifyPrinter(_ context: IPPRequestContext) -> IPPResponse {
        var actions = cache["identify-actions-default"]?.values.compactMap(\.stringValue) ?? ["sound"]
        if let attribute = context.attribute("identify-actions") {
            let supported = Set(cache["identify-actions-supported"]?.values.compactMap(\.stringValue) ?? [])
            let requested = attribute.values.compactMap(\.stringValue)
            guard requested.count == attribute.values.count, requested.allSatisfy(supported.contains) else {
                var error = IPPResponseError(
                    .clientErrorAttributesOrValuesNotSupported, "identify-actions must be among \(supported.sorted()).")
                error.unsupported = [attribute]
                return error.response
            }
            actions = requested
        }
        let message = context.attribute("message")?.value?.stringValue
        log("identify (\(actions.joined(separator: ", ")))" + (message.map { ": \($0)" } ?? ""))
        updatePrinter { state in
            if !state.faultReasons.contains(.identifyPrinterRequested) {
                state.faultReasons.append(.identifyPrinterRequested)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.identifyDuration) { [self] in
            updatePrinter { $0.faultReasons.removeAll { $0 == .identifyPrinterRequested } }
        }
        return IPPResponse()
    }
}

/// The printer icons served over HTTP and listed in printer-icons.
package enum PrinterIcon {
    /// Square sizes in pixels: small, normal and large, as CUPS and PAPPL list them.
    package static let sizes = [48, 128, 512]
}
