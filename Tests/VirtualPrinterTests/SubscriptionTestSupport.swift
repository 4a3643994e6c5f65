import Foundation
import HTTPServer
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// A duplex-laser printer in a temporary folder behind a `PrinterService`, for the subscription tests.
final class SubscriptionTestPrinter: Sendable {
    let folder: String
    let printer: Printer
    let service: PrinterService
    static let uri = "ipp://localhost:631/ipp/print"
    /// One scheduler for all of these printers: its worker threads live as long as the process.
    static let scheduler = JobScheduler(workers: 2)

    /// With `access`, requests carry the Basic credentials of their requesting-user-name (password: the name),
    /// over TLS.
    init(access: AccessControl = .open) throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent("vprinter-subs-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let profile = try PrinterProfile.load(
            nameOrPath: "duplex-laser", searchDirectories: [root.appendingPathComponent("profiles").path])
        let configuration = PrinterConfiguration(
            name: "t", resourcePath: "/ipp/print", uuid: PrinterConfiguration.uuid(forName: "t"),
            attributes: profile.printerAttributes(context: ProfileAttributeContext(printerName: "t")),
            outputDirectory: folder)
        printer = Printer(
            configuration: configuration, jobIDs: JobIDAllocator(outputDirectory: folder), scheduler: Self.scheduler)
        service = PrinterService(printers: [printer], access: access)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Sends a request (the charset, language and printer-uri come first) and decodes the response.
    func send(
        _ operation: IPPOperation, _ attributes: [IPPAttribute] = [], subscriptions: [[IPPAttribute]] = [],
        data: [UInt8] = []
    ) throws -> IPPMessage {
        var group = IPPAttributeGroup(tag: .operationAttributes)
        group.append("attributes-charset", .charset("utf-8"))
        group.append("attributes-natural-language", .naturalLanguage("en"))
        group.append("printer-uri", .uri(Self.uri))
        group.attributes += attributes
        var message = IPPMessage(version: .v2_0, operation: operation, requestID: 1, groups: [group])
        message.groups += subscriptions.map { IPPAttributeGroup(tag: .subscriptionAttributes, attributes: $0) }
        let body = IPPEncoder.encode(message) + data
        var headers: HTTPHeaders = ["Content-Type": "application/ipp"]
        if service.access.isEnabled,
            let user = attributes.first(where: { $0.name == "requesting-user-name" })?.value?.stringValue
        {
            headers.set("Authorization", "Basic " + Data("\(user):\(user)".utf8).base64EncodedString())
        }
        let request = HTTPRequest(
            method: "POST", target: "/ipp/print", path: "/ipp/print", headers: headers, host: "localhost",
            localPort: 631, contentLength: body.count, isEncrypted: service.access.isEnabled)
        var stream = HTTPRequestBody(bytes: body)
        let response = service.handle(request, body: &stream)
        guard case .bytes(let bytes) = response.body else {
            Issue.record("the IPP response is not a byte body")
            return IPPMessage(version: .v2_0, status: .serverErrorInternalError, requestID: 0)
        }
        return try IPPDecoder().decode(bytes).message
    }

    /// Creates one ippget printer subscription for `events`; returns its id.
    func subscribe(_ events: [String], user: String = "alice", extra: [IPPAttribute] = []) throws -> Int {
        let response = try send(
            .createPrinterSubscriptions, [IPPAttribute("requesting-user-name", .name(user))],
            subscriptions: [
                [
                    IPPAttribute("notify-pull-method", .keyword("ippget")),
                    IPPAttribute(name: "notify-events", values: events.map { .keyword($0) }),
                ] + extra
            ])
        #expect(response.status == .successfulOK)
        return try #require(response.subscriptionIDs.first ?? nil)
    }

    /// Creates a job (no document yet) for `user`; returns its id.
    func createJob(user: String = "alice") throws -> Int {
        let response = try send(.createJob, [IPPAttribute("requesting-user-name", .name(user))])
        let id = response.attribute("job-id", in: .jobAttributes)?.value?.integerValue
        return Int(try #require(id))
    }

    /// Cancels a job, which ends it at once.
    func cancelJob(_ id: Int) throws {
        let response = try send(
            .cancelJob,
            [IPPAttribute("job-id", .integer(Int32(id))), IPPAttribute("requesting-user-name", .name("alice"))])
        #expect(response.status == .successfulOK)
    }

    /// Get-Notifications for subscriptions, from sequence numbers.
    func notifications(_ ids: [Int], from sequences: [Int]? = nil, user: String = "alice", wait: Bool = false)
        throws -> IPPMessage
    {
        var attributes = [
            IPPAttribute("requesting-user-name", .name(user)),
            IPPAttribute(name: "notify-subscription-ids", values: ids.map { .integer(Int32($0)) }),
        ]
        if let sequences {
            attributes.append(
                IPPAttribute(name: "notify-sequence-numbers", values: sequences.map { .integer(Int32($0)) }))
        }
        if wait { attributes.append(IPPAttribute("notify-wait", .boolean(true))) }
        return try send(.getNotifications, attributes)
    }
}

extension IPPMessage {
    /// notify-subscription-id of each subscription group, nil where the group has none.
    var subscriptionIDs: [Int?] {
        groups.filter { $0.tag == .subscriptionAttributes }.map {
            $0["notify-subscription-id"]?.value?.integerValue.map(Int.init)
        }
    }

    /// The event notification groups.
    var notificationGroups: [IPPAttributeGroup] {
        groups.filter { $0.tag == .eventNotificationAttributes }
    }
}

extension IPPAttributeGroup {
    /// The integer of a single-valued attribute.
    func integerValue(of name: String) -> Int? {
        self[name]?.value?.integerValue.map(Int.init)
    }

    /// The keyword or other string of a single-valued attribute.
    func stringValue(of name: String) -> String? {
        self[name]?.value?.stringValue
    }
}
