import IPP

/// The render request's ticket (docs/render-protocol.md): the job's template attributes, completed with the
/// printer's defaults, in the worker's terms (media in hundredths of a millimetre, keywords, dpi).
enum RenderTicket {
    /// Builds the ticket object for a job.
    static func make(for job: RenderJob, password: String?, renderDPI: Int) -> [String: Any] {
        let printer = job.printerAttributes
        func template(_ name: String) -> IPPAttribute? {
            job.ticket.first { $0.name == name } ?? printer["\(name)-default"]
        }
        func keyword(_ name: String) -> String? {
            template(name)?.value?.stringValue
        }
        var ticket: [String: Any] = [:]
        let (width, height, margins) = media(job: job)
        // Without media in the job, raster pages print on the size they were made for.
        let namesMedia = job.ticket.contains { $0.name == "media" || $0.name == "media-col" }
        if !namesMedia { ticket["media-from-document"] = true }
        ticket["media-width"] = width
        ticket["media-height"] = height
        for (side, value) in margins { ticket["media-\(side)-margin"] = value }
        for name in [
            "sides", "print-color-mode", "print-scaling", "multiple-document-handling",
            "presentation-direction-number-up",
        ] {
            if let value = keyword(name) { ticket[name] = value }
        }
        ticket["print-color-mode"] = colorMode(
            keyword("print-color-mode"), colorPrinter: printer["color-supported"]?.value?.booleanValue ?? false)
        if let number = template("number-up")?.value?.integerValue { ticket["number-up"] = Int(number) }
        if let copies = job.ticket.first(where: { $0.name == "copies" })?.value?.integerValue {
            ticket["copies"] = Int(copies)
        }
        // Only a requested orientation: without one the renderer turns pages to fit (automatic rotation).
        if let orientation = job.ticket.first(where: { $0.name == "orientation-requested" })?.value?.integerValue,
            let name = IPPEnumNames.keyword(attribute: "orientation-requested", value: orientation), name != "none"
        {
            ticket["orientation-requested"] = name
        }
        let ranges: [[String: Int]] = (job.ticket.first { $0.name == "page-ranges" }?.values ?? []).compactMap {
            guard case .rangeOfInteger(let range) = $0 else { return nil }
            return ["lower": Int(range.lowerBound), "upper": Int(range.upperBound)]
        }
        if !ranges.isEmpty { ticket["page-ranges"] = ranges }
        ticket["dpi"] = min(renderDPI, resolution(for: job) ?? renderDPI)
        if let password { ticket["document-password"] = password }
        return ticket
    }

    /// The printer resolution a job prints at, in dots per inch: printer-resolution when the job gives it, else
    /// chosen by print-quality (draft the lowest supported, high the highest, normal the default).
    static func resolution(for job: RenderJob) -> Int? {
        func dpi(_ value: IPPValue?) -> Int? {
            guard case .resolution(let r)? = value, r.crossFeed > 0 else { return nil }
            return r.units == .dotsPerCentimeter ? Int(r.crossFeed) * 254 / 100 : Int(r.crossFeed)
        }
        if let requested = dpi(job.ticket.first { $0.name == "printer-resolution" }?.value) { return requested }
        let supported = (job.printerAttributes["printer-resolution-supported"]?.values ?? []).compactMap { dpi($0) }
        switch job.ticket.first(where: { $0.name == "print-quality" })?.value?.integerValue {
        case 3?: return supported.min()
        case 5?: return supported.max()
        default: return dpi(job.printerAttributes["printer-resolution-default"]?.value)
        }
    }

    /// The rendering color mode for a print-color-mode keyword (PWG 5100.13 section 5.2.3): auto prints color on
    /// a color printer; the monochrome variants print gray, the bi-level ones black and white; a mono printer
    /// prints everything in gray.
    static func colorMode(_ keyword: String?, colorPrinter: Bool) -> String {
        switch keyword {
        case "bi-level", "process-bi-level": "bi-level"
        case "monochrome", "auto-monochrome", "process-monochrome": "monochrome"
        default: colorPrinter ? "color" : "monochrome"
        }
    }

    /// The media size and margins: media-col, else media, else the printer's media-col-default.
    static func media(job: RenderJob) -> (width: Int, height: Int, margins: [(String, Int)]) {
        let sides = ["top", "bottom", "left", "right"]
        func margins(of members: [IPPAttribute]?) -> [(String, Int)] {
            sides.compactMap { side in
                members?.first { $0.name == "media-\(side)-margin" }?.value?.integerValue.map { (side, Int($0)) }
            }
        }
        func size(of members: [IPPAttribute]?) -> (Int, Int)? {
            guard let dims = members?.first(where: { $0.name == "media-size" })?.value?.collectionValue,
                let x = dims.first(where: { $0.name == "x-dimension" })?.value?.integerValue,
                let y = dims.first(where: { $0.name == "y-dimension" })?.value?.integerValue
            else { return nil }
            return (Int(x), Int(y))
        }
        let defaultCol = job.printerAttributes["media-col-default"]?.value?.collectionValue
        let defaultMargins = margins(of: defaultCol)
        if let col = job.ticket.first(where: { $0.name == "media-col" })?.value?.collectionValue,
            let (w, h) = size(of: col)
        {
            let given = margins(of: col)
            return (w, h, given.isEmpty ? defaultMargins : given)
        }
        if let name = job.ticket.first(where: { $0.name == "media" })?.value?.stringValue,
            let size = MediaSize(pwgName: name)
        {
            return (Int(size.width), Int(size.height), defaultMargins)
        }
        if let (w, h) = size(of: defaultCol) { return (w, h, defaultMargins) }
        return (21_590, 27_940, defaultMargins)
    }
}
