import IPP
import PrintModel
import Profiles

extension IPPStatus {
    /// client-error-attributes-not-settable (RFC 3380 section 7.1).
    static let clientErrorAttributesNotSettable = IPPStatus(rawValue: 0x0413)
}

/// Set-Printer-Attributes, Set-Job-Attributes and Get-Printer-Supported-Values (RFC 3380).
extension Printer {
    /// The longest printer-info, printer-location and similar texts (PWG 5100.13 section 6.6).
    static let maximumDescriptionLength = 127

    /// Set-Printer-Attributes (RFC 3380 section 4.1): the attributes of printer-settable-attributes-supported.
    func setPrinterAttributes(_ context: IPPRequestContext) -> IPPResponse {
        guard let changes = context.message[group: .printerAttributes]?.attributes, !changes.isEmpty else {
            return .error(.clientErrorBadRequest, "Set-Printer-Attributes needs a printer-attributes group.")
        }
        let settable = Set(PrinterSettableAttributes.names)
        if let refusal = Self.refusal(changes.filter { !settable.contains($0.name) }, notSettable: true) {
            return refusal
        }
        let current = (cache, status.withLock { $0.device })
        if let refusal = Self.refusal(changes.filter { !isValidPrinterSetting($0, current: current) }) {
            return refusal
        }
        // printer-input-tray and printer-supply set the simulated device's levels (PWG 5100.13 key=value form).
        for change in changes where change.name == "printer-input-tray" || change.name == "printer-supply" {
            for (index, value) in change.values.enumerated() {
                let fields = Self.keyValues(value)
                guard let level = fields["level"].flatMap(Int.init) else { continue }
                if change.name == "printer-input-tray" {
                    setTrayLevel(source: fields["name"], level: level)
                } else {
                    setSupplyLevel(index: fields["index"].flatMap(Int.init) ?? index + 1, level: level)
                }
            }
        }
        let device: Set<String> = ["printer-message-from-operator", "printer-input-tray", "printer-supply"]
        let cached = changes.filter { !device.contains($0.name) }
        attributeStore.change { $0 = $0.replacing(cached) }
        let message = changes.first { $0.name == "printer-message-from-operator" }?.value?.stringValue
        updatePrinter { state in
            if let message { state.messageFromOperator = message }
            state.configChangeTime = WallClock.now()
        }
        recordForSubscriptions(
            events.publish(
                PrinterEvent(
                    kind: .printerConfigChanged, sequence: 0, time: WallClock.now(), printerName: configuration.name,
                    jobID: nil, state: status.withLock { $0.state.keyword }, reasons: [], message: nil)))
        log("attributes set by \(context.user): \(changes.map(\.name).joined(separator: ", "))")
        return IPPResponse()
    }

    /// The answer refusing `attributes` (returned in the unsupported group), or nil when there are none:
    /// client-error-attributes-not-settable, or client-error-attributes-or-values-not-supported for bad values.
    static func refusal(_ attributes: [IPPAttribute], notSettable: Bool = false) -> IPPResponse? {
        guard !attributes.isEmpty else { return nil }
        let names = attributes.map(\.name).joined(separator: ", ")
        var error =
            notSettable
            ? IPPResponseError(.clientErrorAttributesNotSettable, "Not settable: \(names).")
            : IPPResponseError(.clientErrorAttributesOrValuesNotSupported, "Unsupported values for \(names).")
        error.unsupported = attributes
        return error.response
    }

    /// The `key=value;` pairs of a printer-input-tray or printer-supply value, by key.
    static func keyValues(_ value: IPPValue) -> [String: String] {
        Dictionary(DeviceFields.pairs(of: value), uniquingKeysWith: { first, _ in first })
    }

    /// Checks one Set-Printer-Attributes value against its syntax and supported values.
    func isValidPrinterSetting(_ attribute: IPPAttribute, current: (cache: PrinterAttributeCache, device: DeviceState))
        -> Bool
    {
        let (current, device) = current
        guard let value = attribute.value else { return false }
        switch attribute.name {
        case "printer-info", "printer-location", "printer-organization", "printer-organizational-unit",
            "printer-message-from-operator":
            guard attribute.values.count == 1 else { return false }
            switch value {
            case .text(let text), .textWithLanguage(_, let text):
                return text.utf8.count <= Self.maximumDescriptionLength
            default: return false
            }
        case "printer-geo-location":
            if case .uri(let uri) = value, attribute.values.count == 1 { return uri.hasPrefix("geo:") }
            return value == .outOfBand(.unknown)
        case "printer-input-tray", "printer-supply":
            // Each value names its tray (name=) or supply (index=) and a level.
            return attribute.values.allSatisfy { value in
                let fields = Self.keyValues(value)
                guard let level = fields["level"].flatMap(Int.init), level >= 0 else { return false }
                if attribute.name == "printer-input-tray" {
                    return fields["name"].map { name in device.trays.contains { $0.name == name && $0.canRunOut } }
                        ?? false
                }
                return level <= 100
            }
        case "media-ready":
            let supported = Set(current["media-supported"]?.values.compactMap(\.stringValue) ?? [])
            return attribute.values.allSatisfy { $0.stringValue.map(supported.contains) ?? false }
        case "media-col-ready":
            let validator = JobTicketValidator(printer: current)
            return attribute.values.allSatisfy { validator.isSupported(IPPAttribute(name: "media-col", values: [$0])) }
        default:
            // xxx-default: one value the printer supports for xxx.
            guard attribute.name.hasSuffix("-default"), attribute.values.count == 1 else { return false }
            let base = String(attribute.name.dropLast("-default".count))
            return JobTicketValidator(printer: current).isSupported(IPPAttribute(name: base, values: attribute.values))
        }
    }

    /// Set-Job-Attributes (RFC 3380 section 4.2): job-settable-attributes-supported, before the job prints.
    func setJobAttributes(_ context: IPPRequestContext) -> IPPResponse {
        let job: Job
        switch targetJob(context) {
        case .success(let value): job = value
        case .failure(let error): return error.response
        }
        guard let changes = context.jobAttributes?.attributes, !changes.isEmpty else {
            return .error(.clientErrorBadRequest, "Set-Job-Attributes needs a job-attributes group.")
        }
        let settable = Set(cache["job-settable-attributes-supported"]?.values.compactMap(\.stringValue) ?? [])
        if let refusal = Self.refusal(changes.filter { !settable.contains($0.name) }, notSettable: true) {
            return refusal
        }
        let validator = JobTicketValidator(printer: cache)
        let invalid = changes.filter { attribute in
            if attribute.name == "job-name" {
                switch attribute.value {
                case .name?, .nameWithLanguage?: return attribute.values.count != 1
                default: return true
                }
            }
            return !validator.isSupported(attribute)
        }
        if let refusal = Self.refusal(invalid) { return refusal }
        let result = updateJob(job.id, durable: true) { (job: inout Job) throws(IPPResponseError) in
            guard job.state == .pending || job.state == .pendingHeld else {
                throw IPPResponseError(
                    .clientErrorNotPossible,
                    "Job \(job.id) is \(job.state.keyword); its attributes can no longer change.")
            }
            if job.jobPassword != nil,
                changes.contains(where: { $0.name == "job-hold-until" && $0.value?.stringValue == "no-hold" })
            {
                throw IPPResponseError(.clientErrorNotPossible, Self.waitsForPassword(job.id))
            }
            for change in changes {
                if change.name == "job-name", let name = change.value?.stringValue {
                    job.name = name
                    continue
                }
                job.templateAttributes.removeAll { $0.name == change.name }
                job.templateAttributes.append(change)
                if change.name == "job-hold-until", let until = change.value?.stringValue {
                    if until == "no-hold" {
                        job.holdUntil = nil
                        if job.state == .pendingHeld && !job.heldForNewJobs {
                            _ = try? job.apply(.released, at: WallClock.now())
                        }
                    } else {
                        job.holdUntil = until
                        if job.state == .pending { _ = try? job.apply(.held, at: WallClock.now()) }
                    }
                }
            }
        }
        return jobResponse(result, context: context)
    }

    /// Get-Printer-Supported-Values (RFC 3380 section 4.3): for each settable attribute, the values it may take;
    /// `admin-define` for free text.
    func getPrinterSupportedValues(_ context: IPPRequestContext) -> IPPResponse {
        let requested = RequestedAttributes(context.attribute("requested-attributes"))
        let current = cache
        var group = IPPAttributeGroup(tag: .printerAttributes)
        for name in PrinterSettableAttributes.names where requested.includes(name) {
            let base: String
            if name.hasSuffix("-default") {
                base = String(name.dropLast("-default".count))
            } else if name.hasSuffix("-ready") {
                base = String(name.dropLast("-ready".count))
            } else {
                base = name
            }
            if let supported = current["\(base)-supported"], name != base {
                group.append(IPPAttribute(name: name, values: supported.values))
            } else {
                group.append(IPPAttribute(name: name, values: [.outOfBand(.adminDefine)]))
            }
        }
        var response = IPPResponse()
        response.groups.append(group)
        return response
    }
}
