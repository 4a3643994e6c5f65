import IPP
import Profiles

extension Printer {
    /// The one place a printer is built from a profile; the fleet's factory (`vprinter`, `--config`, printers made
    /// at runtime), the embedded printer and offline printers all come through here.
    ///
    /// The configuration holds the profile's attributes for `name`, `printer-id` (PWG 5100.22: every printer of a
    /// System Service has one; 1 for a printer alone), `extraAttributes` (printer-info, printer-location of a
    /// fleet spec), and the profile's raw attributes, which win as docs/profiles.md says; `adjust` sets the rest
    /// (limits, speed, consumables, security).
    package static func build(
        profile: PrinterProfile, name: String, resourcePath: String = "/ipp/print", id: Int, outputDirectory: String,
        extraAttributes: [IPPAttribute] = [], adjust: (inout PrinterConfiguration) -> Void = { _ in },
        jobIDs: JobIDAllocator, scheduler: JobScheduler, renderer: (any JobRenderer)? = nil,
        events: EventHub = EventHub(), log: @escaping @Sendable (String) -> Void = { _ in }
    ) -> Printer {
        var attributes = profile.printerAttributes(context: ProfileAttributeContext(printerName: name))
        attributes.append(IPPAttribute("printer-id", .integer(Int32(clamping: id))))
        attributes += extraAttributes
        var configuration = PrinterConfiguration(
            name: name, resourcePath: resourcePath, uuid: PrinterConfiguration.uuid(forName: name),
            attributes: attributes, outputDirectory: outputDirectory)
        configuration.overridingAttributes = profile.attributes
        configuration.scanner = profile.features.scanner
        adjust(&configuration)
        return Printer(
            configuration: configuration, jobIDs: jobIDs, scheduler: scheduler, renderer: renderer, events: events,
            log: log)
    }
}
