import Foundation
import HTTPServer
import IPP
import Profiles

extension Printer {
    /// A printer for a profile that serves nobody: for `vprinter profiles --show`, for the checks of
    /// `vprinter clone` and for tests. It records no jobs (its output folder does not exist).
    public static func offline(profile: PrinterProfile, name: String) -> Printer {
        build(
            profile: profile, name: name, id: 1,
            outputDirectory: FileManager.default.temporaryDirectory.appendingPathComponent(
                "vprinter-offline-\(UUID().uuidString)"
            ).path, jobIDs: JobIDAllocator(outputDirectory: "/nonexistent"), scheduler: offlineScheduler)
    }

    /// The scheduler of offline printers, which never print.
    private static let offlineScheduler = JobScheduler(workers: 1)

    /// What Get-Printer-Attributes answers for `requested` (default `all,media-col-database`), as a client on
    /// `host:port` would receive it: the static attributes, then the state and the URIs.
    public func answerPrinterAttributes(
        requested: [String] = ["all", "media-col-database"], host: String = "localhost", port: UInt16 = 8631
    ) -> [IPPAttribute] {
        var group = IPPAttributeGroup(tag: .operationAttributes)
        group.append("attributes-charset", .charset("utf-8"))
        group.append("attributes-natural-language", .naturalLanguage("en"))
        group.append(IPPAttribute(name: "requested-attributes", values: requested.map { .keyword($0) }))
        let message = IPPMessage(version: .v2_0, operation: .getPrinterAttributes, requestID: 1, groups: [group])
        let authority = HTTPRequest.uriAuthority(host: host, port: port)
        let context = IPPRequestContext(
            message: message, uriAuthority: authority, user: "anonymous",
            client: ClientInfo(address: "127.0.0.1", userAgent: nil),
            printerURI: "ipp://\(authority)\(configuration.resourcePath)", jobID: nil, attributes: cache)
        let bytes = getPrinterAttributes(context).encode(version: .v2_0, requestID: 1)
        guard let decoded = try? IPPDecoder().decode(bytes) else { return [] }
        return decoded.message[group: .printerAttributes]?.attributes ?? []
    }
}
