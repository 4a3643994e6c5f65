import Foundation
import HTTPServer
import IPP
import PrinterCore

/// The PWG 5100.22 System Service at `/ipp/system`: Get-System-Attributes, Get-Printers, Create-Printer,
/// Delete-Printer, Shutdown-One-Printer and Startup-One-Printer (power off and on).
///
/// Create-Printer takes printer-name and, as vprinter's own creation attributes, `vprinter-profile` (a
/// profile's name or file) and `vprinter-scenario` (a scenario's name or file); printer-info and
/// printer-location are honored too. Changes follow the rules of the JSON API's (docs/security.md): with
/// `--user`, admins only; else loopback, or the API token when `--api-token` is set.
struct SystemService {
    /// The System Service's resource path.
    static let path = "/ipp/system"
    /// The operations of the System Service, in operations-supported.
    static let operations: [IPPOperation] = [
        .getSystemAttributes, .getPrinters, .createPrinter, .deletePrinter, .shutdownOnePrinter, .startupOnePrinter,
    ]
    /// The operations that change the system; the others read it.
    static let changingOperations: Set<IPPOperation> = [
        .createPrinter, .deletePrinter, .shutdownOnePrinter, .startupOnePrinter,
    ]
    /// What Create-Printer reads from its printer-attributes group (printer-creation-attributes-supported).
    static let creationAttributes = [
        "printer-name", "printer-info", "printer-location", "vprinter-profile",
        "vprinter-scenario",
    ]
    /// Get-Printers returns these when the request names none.
    static let defaultPrinterAttributes = [
        "printer-id", "printer-name", "printer-uri-supported", "printer-uuid", "printer-state", "printer-state-reasons",
        "printer-is-accepting-jobs", "printer-xri-supported",
    ]

    let service: PrinterService

    /// Runs an operation; `refusal` is why a change may not go on (``PrinterService/changeRefusal(_:)``),
    /// answered as client-error-not-authorized or client-error-forbidden.
    func perform(_ message: IPPMessage, request: HTTPRequest, refusal: PrinterService.ChangeRefusal?) -> IPPResponse {
        if let error = IPPRequestValidator.checkHeader(message) { return error.response }
        let operation = message[group: .operationAttributes] ?? IPPAttributeGroup(tag: .operationAttributes)
        let context = Context(message: message, operation: operation, request: request)
        switch message.operation {
        case .getSystemAttributes: return getSystemAttributes(context)
        case .getPrinters: return getPrinters(context)
        case .createPrinter, .deletePrinter, .shutdownOnePrinter, .startupOnePrinter:
            if let refusal { return refusal.ippResponse(for: message.operation) }
            switch message.operation {
            case .createPrinter: return createPrinter(context)
            case .deletePrinter: return deletePrinter(context)
            default: return setPower(context, on: message.operation == .startupOnePrinter)
            }
        default:
            return .error(
                .serverErrorOperationNotSupported, "\(message.operation) is not an operation of the System Service.")
        }
    }

    /// A request and where it came from.
    struct Context {
        let message: IPPMessage
        let operation: IPPAttributeGroup
        let request: HTTPRequest

        /// `host:port` of the System Service as the client addressed it.
        var authority: String { request.uriAuthority() }
        var requested: [String]? { operation["requested-attributes"]?.values.compactMap(\.stringValue) }
    }

    // MARK: Get-System-Attributes (PWG 5100.22 section 7.x)

    func getSystemAttributes(_ context: Context) -> IPPResponse {
        let requested = Set(context.requested ?? ["all"])
        let all =
            requested.contains("all") || requested.contains("system-description")
            || requested.contains("system-status")
        var group = IPPAttributeGroup(tag: .systemAttributes)
        for attribute in systemAttributes(context) where all || requested.contains(attribute.name) {
            group.append(attribute)
        }
        var response = IPPResponse()
        response.groups = [group]
        return response
    }

    func systemAttributes(_ context: Context) -> [IPPAttribute] {
        let now = WallClock.now()
        let hosted = service.registry.all
        let processing = hosted.contains { $0.printer.status.withLock { $0.state } == .processing }
        let upTime = Int32(clamping: Int(now - service.startTime) + 1)
        let start = IPPDateTime(secondsSince1970: service.startTime)
        let systemURIs = service.security.schemes(clientUsedTLS: context.request.isEncrypted).map {
            (uri: "\($0.scheme)://\(context.authority)\(Self.path)", security: $0.security)
        }
        return [
            IPPAttribute(name: "charset-configured", values: [.charset("utf-8")]),
            IPPAttribute(name: "charset-supported", values: [.charset("utf-8"), .charset("us-ascii")]),
            IPPAttribute(name: "generated-natural-language-supported", values: [.naturalLanguage("en")]),
            IPPAttribute(name: "ipp-versions-supported", values: [.keyword("1.1"), .keyword("2.0")]),
            IPPAttribute(name: "natural-language-configured", values: [.naturalLanguage("en")]),
            IPPAttribute(name: "operations-supported", values: Self.operations.map { .enumValue(Int32($0.rawValue)) }),
            IPPAttribute(
                name: "printer-creation-attributes-supported", values: Self.creationAttributes.map { .keyword($0) }),
            IPPAttribute("system-config-change-date-time", .dateTime(start)),
            IPPAttribute("system-config-change-time", .integer(1)),
            IPPAttribute(name: "system-configured-printers", values: hosted.map { configuredPrinter($0, context) }),
            IPPAttribute("system-current-time", .dateTime(IPPDateTime(secondsSince1970: now))),
            IPPAttribute(
                "system-default-printer-id",
                hosted.first.map { .integer(Int32(clamping: $0.id)) } ?? .outOfBand(.noValue)),
            IPPAttribute("system-info", .text("vprinter: virtual IPP Everywhere printers for testing")),
            IPPAttribute("system-location", .text("")),
            IPPAttribute("system-make-and-model", .text("vprinter")),
            IPPAttribute(name: "system-mandatory-printer-attributes", values: [.keyword("printer-name")]),
            IPPAttribute("system-name", .name("vprinter")),
            IPPAttribute("system-state", .enumValue(processing ? 4 : 3)),
            IPPAttribute("system-state-change-date-time", .dateTime(start)),
            IPPAttribute("system-state-change-time", .integer(1)),
            IPPAttribute(name: "system-state-reasons", values: [.keyword("none")]),
            IPPAttribute("system-up-time", .integer(upTime)),
            IPPAttribute("system-uuid", .uri(PrinterConfiguration.uuid(forName: "vprinter system service"))),
            IPPAttribute(
                name: "system-xri-supported",
                values: systemURIs.map {
                    .collection(
                        Self.xri(
                            $0.uri, security: $0.security, authentication: service.security.authenticationKeyword))
                }),
        ]
    }

    /// One member of system-configured-printers.
    func configuredPrinter(_ hosted: HostedPrinter, _ context: Context) -> IPPValue {
        let (state, reasons, accepting) = hosted.printer.status.withLock { ($0.state, $0.reasons, $0.isAcceptingJobs) }
        return .collection([
            IPPAttribute("printer-id", .integer(Int32(clamping: hosted.id))),
            IPPAttribute(
                "printer-info", .text(hosted.printer.cache["printer-info"]?.value?.stringValue ?? hosted.name)),
            IPPAttribute("printer-is-accepting-jobs", .boolean(accepting && hosted.printer.power.isOn)),
            IPPAttribute("printer-name", .name(hosted.name)),
            IPPAttribute("printer-service-type", .keyword("print")),
            IPPAttribute("printer-state", .enumValue(hosted.printer.power.isOn ? state.rawValue : 5)),
            IPPAttribute(
                name: "printer-state-reasons",
                values: PrinterStateReason.keywords(of: hosted.printer.power.isOn ? reasons : [.shutdown]).map {
                    .keyword($0)
                }),
            printerXRI(hosted, context),
        ])
    }

    /// An xri collection (PWG 5100.22): a URI with its security (`none`, `tls`) and authentication (`none`,
    /// `basic`).
    static func xri(_ uri: String, security: String = "none", authentication: String = "none") -> [IPPAttribute] {
        [
            IPPAttribute("xri-authentication", .keyword(authentication)),
            IPPAttribute("xri-security", .keyword(security)),
            IPPAttribute("xri-uri", .uri(uri)),
        ]
    }

    /// The printer's URIs (`ipp://`, `ipps://` with TLS, only `ipps://` with `--tls-only`), the scheme the client
    /// used first, as printer-uri-supported lists them.
    func printerURIs(_ hosted: HostedPrinter, _ context: Context) -> [(uri: String, security: String)] {
        let authority = context.request.uriAuthority(servicePort: hosted.port)
        let path = hosted.printer.configuration.resourcePath
        return hosted.printer.configuration.security.schemes(clientUsedTLS: context.request.isEncrypted).map {
            (uri: "\($0.scheme)://\(authority)\(path)", security: $0.security)
        }
    }

    /// The printer's first URI: the scheme the client used when the printer speaks it.
    func printerURI(_ hosted: HostedPrinter, _ context: Context) -> String {
        printerURIs(hosted, context).first?.uri ?? ""
    }

    /// printer-xri-supported: one collection per URI.
    func printerXRI(_ hosted: HostedPrinter, _ context: Context) -> IPPAttribute {
        let authentication = hosted.printer.configuration.security.authenticationKeyword
        return IPPAttribute(
            name: "printer-xri-supported",
            values: printerURIs(hosted, context).map {
                .collection(Self.xri($0.uri, security: $0.security, authentication: authentication))
            })
    }

    // MARK: Get-Printers

    func getPrinters(_ context: Context) -> IPPResponse {
        var selected = service.registry.all
        if let ids = context.operation["printer-ids"]?.values.compactMap(\.integerValue) {
            let wanted = Set(ids.map(Int.init))
            selected = selected.filter { wanted.contains($0.id) }
        }
        if let which = context.operation["which-printers"]?.value?.stringValue, which != "all" {
            selected = selected.filter { hosted in
                let (state, accepting) = hosted.printer.status.withLock { ($0.state, $0.isAcceptingJobs) }
                let on = hosted.printer.power.isOn
                switch which {
                case "accepting": return on && accepting
                case "not-accepting": return !(on && accepting)
                case "idle": return on && state == .idle
                case "processing": return on && state == .processing
                case "stopped": return on && state == .stopped
                case "shutdown": return !on
                default: return true
                }
            }
        }
        if let first = context.operation["first-index"]?.value?.integerValue, first > 1 {
            selected = Array(selected.dropFirst(Int(first) - 1))
        }
        if let limit = context.operation["limit"]?.value?.integerValue, limit > 0 {
            selected = Array(selected.prefix(Int(limit)))
        }
        let names = context.requested ?? Self.defaultPrinterAttributes
        var response = IPPResponse()
        response.encodedPrinterGroups = selected.map { printerGroup($0, requested: names, context) }
        return response
    }

    /// One printer's attributes as Get-Printer-Attributes answers them for `requested`, plus printer-id and
    /// printer-xri-supported.
    func printerGroup(_ hosted: HostedPrinter, requested: [String], _ context: Context) -> [UInt8] {
        let operation = IPPAttributeGroup(
            tag: .operationAttributes,
            attributes: [IPPAttribute(name: "requested-attributes", values: requested.map { .keyword($0) })])
        let message = IPPMessage(
            version: context.message.version, operation: .getPrinterAttributes, requestID: 1, groups: [operation])
        let uri = printerURI(hosted, context)
        var printerContext = IPPRequestContext(
            message: message, uriAuthority: context.request.uriAuthority(servicePort: hosted.port), user: "anonymous",
            client: ClientInfo(address: context.request.remoteAddress, userAgent: nil),
            printerURI: uri, jobID: nil, attributes: hosted.printer.cache)
        printerContext.isEncrypted = context.request.isEncrypted
        printerContext.requiresAuthentication = service.access.isEnabled
        var bytes = hosted.printer.getPrinterAttributes(printerContext).encodedPrinterAttributes ?? []
        let wanted = Set(requested)
        let all = wanted.contains("all") || wanted.contains("printer-description")
        if all || wanted.contains("printer-xri-supported") {
            IPPEncoder.append(printerXRI(hosted, context), to: &bytes)
        }
        return bytes
    }

    // MARK: Create-Printer, Delete-Printer, Shutdown-One-Printer, Startup-One-Printer

    func createPrinter(_ context: Context) -> IPPResponse {
        guard let fleet = service.fleet.withLock({ $0 }) else {
            return .error(.serverErrorOperationNotSupported, "This server does not create printers.")
        }
        if let type = context.operation["printer-service-type"]?.value?.stringValue, type != "print" {
            var response = IPPResponse.error(
                .clientErrorAttributesOrValuesNotSupported, "This system creates print services only, not \(type).")
            response.unsupported = [context.operation["printer-service-type"]!]
            return response
        }
        let attributes = context.message[group: .printerAttributes] ?? IPPAttributeGroup(tag: .printerAttributes)
        guard let name = attributes["printer-name"]?.value?.stringValue else {
            return .error(.clientErrorBadRequest, "Create-Printer needs printer-name in the printer attributes.")
        }
        var spec = PrinterSpec(profile: attributes["vprinter-profile"]?.value?.stringValue ?? "duplex-laser")
        spec.name = name
        if let scenario = attributes["vprinter-scenario"]?.value?.stringValue { spec.scenarios = [scenario] }
        spec.info = attributes["printer-info"]?.value?.stringValue
        spec.location = attributes["printer-location"]?.value?.stringValue
        let hosted: HostedPrinter
        do {
            try fleet.factory.checkRequested(spec)
            hosted = try fleet.add(spec, name: name, isRuntime: true)
        } catch {
            return .error(error.ippStatus, "Cannot create the printer: \(error).")
        }
        service.log("System Service: created printer '\(name)' (\(spec.profile))")
        var response = IPPResponse()
        let (state, reasons, accepting) = hosted.printer.status.withLock { ($0.state, $0.reasons, $0.isAcceptingJobs) }
        response.groups = [
            IPPAttributeGroup(
                tag: .printerAttributes,
                attributes: [
                    IPPAttribute("printer-id", .integer(Int32(clamping: hosted.id))),
                    IPPAttribute("printer-is-accepting-jobs", .boolean(accepting)),
                    IPPAttribute("printer-name", .name(hosted.name)),
                    IPPAttribute("printer-state", .enumValue(state.rawValue)),
                    IPPAttribute(
                        name: "printer-state-reasons",
                        values: PrinterStateReason.keywords(of: reasons).map { .keyword($0) }),
                    IPPAttribute(
                        name: "printer-uri-supported", values: printerURIs(hosted, context).map { .uri($0.uri) }),
                    IPPAttribute("printer-uuid", .uri(hosted.printer.configuration.uuid)),
                    printerXRI(hosted, context),
                ])
        ]
        return response
    }

    /// The printer a request targets: printer-id, else printer-uri.
    func target(_ context: Context) -> Result<HostedPrinter, IPPResponseError> {
        if let id = context.operation["printer-id"]?.value?.integerValue {
            guard let hosted = service.registry.printer(id: Int(id)) else {
                return .failure(IPPResponseError(.clientErrorNotFound, "There is no printer with printer-id \(id)."))
            }
            return .success(hosted)
        }
        if let uri = context.operation["printer-uri"]?.value?.stringValue,
            let path = IPPRequestValidator.path(of: uri), let hosted = service.registry.printer(atPath: path)
        {
            return .success(hosted)
        }
        return .failure(
            IPPResponseError(.clientErrorBadRequest, "The request needs printer-id (or a printer's printer-uri)."))
    }

    func deletePrinter(_ context: Context) -> IPPResponse {
        guard let fleet = service.fleet.withLock({ $0 }) else {
            return .error(.serverErrorOperationNotSupported, "This server does not delete printers.")
        }
        switch target(context) {
        case .failure(let error): return error.response
        case .success(let hosted):
            do {
                try fleet.remove(named: hosted.name)
            } catch {
                return .error(error.ippStatus, "Cannot delete the printer: \(error).")
            }
            return IPPResponse()
        }
    }

    func setPower(_ context: Context, on: Bool) -> IPPResponse {
        switch target(context) {
        case .failure(let error): return error.response
        case .success(let hosted):
            hosted.printer.power.set(on: on)
            return IPPResponse()
        }
    }
}

extension FleetError {
    /// The IPP status of the System Service for this error.
    var ippStatus: IPPStatus {
        switch self {
        case .nameTaken: .clientErrorNotPossible
        case .notFound: .clientErrorNotFound
        case .invalid, .profile, .scenario: .clientErrorAttributesOrValuesNotSupported
        case .listen: .serverErrorInternalError
        case .unsupported: .serverErrorOperationNotSupported
        }
    }
}
