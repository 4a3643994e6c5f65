import Foundation
import IPP
import PrinterCore
import PrinterHTTP
import Profiles
import VirtualPrinterKit

/// `vprinter render FILE --out DIR`: renders a file with the printer's pipeline and prints the page files written.
struct RenderCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard let file = options.renderFile, let output = options.renderOutput else {
            Console.log("error: render needs a FILE and --out DIR (see vprinter --help)")
            return 2
        }
        let ticket: [IPPAttribute]
        do {
            ticket = try Self.ticket(options.ticket)
        } catch {
            Console.log("error: \(error.message)")
            return 2
        }
        let profile: PrinterProfile
        do {
            profile = try PrinterProfile.load(
                nameOrPath: options.profiles.first ?? "duplex-laser",
                searchDirectories: PrinterProfile.searchDirectories())
        } catch {
            Console.log("error: \(error)")
            return 1
        }
        guard let worker = RenderWorkerClient.locateWorker() else {
            Console.log(
                "error: the render worker vprinter-render is not beside this binary nor in ../libexec/vprinter; set VPRINTER_RENDER"
            )
            return 1
        }
        let renderer = RenderWorkerClient(
            executable: worker, renderDPI: options.renderDPI,
            rasterDPI: options.renderDPIGiven ? options.renderDPI : RenderWorkerClient.maximumRasterDPI,
            limits: options.renderLimits)
        let attributes = profile.printerAttributes(context: ProfileAttributeContext(printerName: profile.name))
        switch OfflineRendering.render(
            file: file, ticket: ticket, printerAttributes: attributes, outputDirectory: output, renderer: renderer,
            onWarning: { Console.log("warning: \($0.page.map { "page \($0): " } ?? "")\($0.message)") })
        {
        case .success(let impressions):
            for impression in impressions { Console.out("\(output)/\(impression.file)") }
            return 0
        case .failure(let failure):
            Console.log("error: \(failure)")
            return 1
        }
    }

    /// The job template attributes of the ticket options.
    static func ticket(_ options: [String: String]) throws(UsageError) -> [IPPAttribute] {
        var ticket: [IPPAttribute] = []
        func integer(_ key: String) throws(UsageError) -> Int32? {
            guard let text = options[key] else { return nil }
            guard let value = Int32(text), value > 0 else { throw UsageError("--\(key) needs a positive number") }
            return value
        }
        if let sides = options["sides"] { ticket.append(IPPAttribute("sides", .keyword(sides))) }
        if let media = options["media"] { ticket.append(IPPAttribute("media", .keyword(media))) }
        if let mode = options["color-mode"] { ticket.append(IPPAttribute("print-color-mode", .keyword(mode))) }
        if let scaling = options["scaling"] { ticket.append(IPPAttribute("print-scaling", .keyword(scaling))) }
        if let number = try integer("number-up") { ticket.append(IPPAttribute("number-up", .integer(number))) }
        if let copies = try integer("copies") { ticket.append(IPPAttribute("copies", .integer(copies))) }
        if let text = options["orientation"] {
            guard let value = IPPEnumNames.value(attribute: "orientation-requested", keyword: text) else {
                throw UsageError("--orientation is portrait, landscape, reverse-landscape or reverse-portrait")
            }
            ticket.append(IPPAttribute("orientation-requested", .enumValue(value)))
        }
        if let text = options["page-ranges"] {
            var ranges: [IPPValue] = []
            for part in text.split(separator: ",") {
                let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int32($0) }
                guard bounds.count <= 2, let lower = bounds.first ?? nil, let upper = bounds.last ?? nil, lower >= 1,
                    lower <= upper
                else { throw UsageError("--page-ranges takes ranges such as 1-3,5, not '\(text)'") }
                ranges.append(.rangeOfInteger(lower...upper))
            }
            ticket.append(IPPAttribute(name: "page-ranges", values: ranges))
        }
        return ticket
    }
}
