import IPP
import PrintModel
import Profiles

extension Printer {
    /// The media, sides and color mode a job with `ticket` prints with: the ticket's values, else the printer's
    /// defaults (the record's `media-actual`, `sides-actual`, `print-color-mode-actual`). The color mode is the one
    /// the sides are rendered in: `color`, `monochrome` or `bi-level` (auto prints color on a color printer).
    func actualSettings(ticket: [IPPAttribute]) -> ActualSettings {
        let cache = self.cache
        func keyword(_ name: String) -> String? {
            (ticket.first { $0.name == name } ?? cache["\(name)-default"])?.value?.stringValue
        }
        let job = RenderJob(
            jobID: 0, folder: "", documents: [], ticket: ticket, printerAttributes: cache.attributes)
        let media: String
        if let name = ticket.first(where: { $0.name == "media" })?.value?.stringValue {
            media = name
        } else {
            let (width, height, _) = RenderTicket.media(job: job)
            media = mediaName(width: width, height: height)
        }
        let colorPrinter = cache["color-supported"]?.value?.booleanValue ?? false
        return ActualSettings(
            media: media, sides: keyword("sides") ?? "one-sided",
            printColorMode: RenderTicket.colorMode(keyword("print-color-mode"), colorPrinter: colorPrinter).rawValue)
    }

    /// The printer's name for a media size (hundredths of a millimetre) from its media-supported, or a custom
    /// self-describing name.
    func mediaName(width: Int, height: Int) -> String {
        let tolerance = Int(JobTicketValidator.mediaSizeTolerance)
        for value in cache["media-supported"]?.values ?? [] {
            guard let name = value.stringValue, let size = MediaSize(pwgName: name) else { continue }
            if abs(Int(size.width) - width) <= tolerance && abs(Int(size.height) - height) <= tolerance { return name }
        }
        let custom = MediaSize(
            className: "custom", sizeName: "printed", width: Int32(clamping: width), height: Int32(clamping: height),
            unit: .millimetres)
        return custom.name
    }

    /// Takes note of a rendered side: a job that named no media prints on the size of its pages (a raster's own
    /// size), which the first side shows.
    func noteImpression(_ impression: PrintedSide, of job: inout Job) {
        job.impressions.append(impression)
        let namesMedia = job.templateAttributes.contains { $0.name == "media" || $0.name == "media-col" }
        guard impression.number == 1, !namesMedia, impression.dpi > 0 else { return }
        let width = impression.width * 2540 / impression.dpi
        let height = impression.height * 2540 / impression.dpi
        job.actual?.media = mediaName(width: width, height: height)
    }

    /// Warnings the printer itself has about a job's documents: data in another format than the client declared.
    func documentWarnings(_ job: Job) -> [JobWarning] {
        job.documents.compactMap { document in
            guard let detected = document.detectedFormat, !document.format.matches(.octetStream),
                !detected.matches(document.format)
            else { return nil }
            return JobWarning(
                kind: .documentFormat, document: document.number,
                message: "document \(document.number) was sent as \(document.format) but its data is \(detected); "
                    + "it printed as \(detected)")
        }
    }
}
