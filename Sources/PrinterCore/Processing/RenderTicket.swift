import IPP
import PrintModel
import Profiles

/// The render request's ticket (docs/render-protocol.md): the job's template attributes, completed with the
/// printer's defaults, as PrintModel's typed `JobTicket` (media in hundredths of a millimetre, keywords, dpi).
enum RenderTicket {
    /// The margins a job or the printer gives, in hundredths of a millimetre; nil where neither says.
    struct Margins: Equatable {
        var top: Int?
        var bottom: Int?
        var left: Int?
        var right: Int?

        /// True when no margin is given.
        var isEmpty: Bool { top == nil && bottom == nil && left == nil && right == nil }
    }

    /// The ticket of a job: what it asked for, completed with the printer's defaults.
    static func make(for job: RenderJob, password: String?, renderDPI: Int, rasterDPI: Int) -> JobTicket {
        let printer = job.printerAttributes
        func template(_ name: String) -> IPPAttribute? {
            job.ticket.first { $0.name == name } ?? printer["\(name)-default"]
        }
        func keyword<T: RawRepresentable>(_ name: String, as type: T.Type) -> T? where T.RawValue == String {
            template(name)?.value?.stringValue.flatMap(T.init(rawValue:))
        }
        var ticket = JobTicket()
        let (width, height, margins) = media(job: job)
        // Without media in the job, raster pages print on the size they were made for.
        ticket.mediaFromDocument = !job.ticket.contains { $0.name == "media" || $0.name == "media-col" }
        ticket.mediaWidth = width
        ticket.mediaHeight = height
        ticket.topMargin = margins.top ?? 0
        ticket.bottomMargin = margins.bottom ?? 0
        ticket.leftMargin = margins.left ?? 0
        ticket.rightMargin = margins.right ?? 0
        if let sides = keyword("sides", as: Sides.self) { ticket.sides = sides }
        if let scaling = keyword("print-scaling", as: Scaling.self) { ticket.scaling = scaling }
        if let handling = keyword("multiple-document-handling", as: MultipleDocumentHandling.self) {
            ticket.multipleDocumentHandling = handling
        }
        if let direction = keyword("presentation-direction-number-up", as: PresentationDirection.self) {
            ticket.presentationDirection = direction
        }
        ticket.colorMode = colorMode(
            template("print-color-mode")?.value?.stringValue,
            colorPrinter: printer["color-supported"]?.value?.booleanValue ?? false)
        if let number = template("number-up")?.value?.integerValue { ticket.numberUp = Int(number) }
        if let copies = job.ticket.first(where: { $0.name == "copies" })?.value?.integerValue {
            ticket.copies = Int(copies)
        }
        // Only a requested orientation: without one the renderer turns pages to fit (automatic rotation).
        if let orientation = job.ticket.first(where: { $0.name == "orientation-requested" })?.value?.integerValue,
            let name = IPPEnumNames.keyword(attribute: "orientation-requested", value: orientation)
        {
            ticket.orientation = Orientation(rawValue: name)
        }
        ticket.pageRanges = (job.ticket.first { $0.name == "page-ranges" }?.values ?? []).compactMap {
            guard case .rangeOfInteger(let range) = $0 else { return nil }
            return PageRange(lower: Int(range.lowerBound), upper: Int(range.upperBound))
        }
        ticket.resolution = min(renderDPI, resolution(for: job) ?? renderDPI)
        ticket.rasterMaximumResolution = rasterDPI
        ticket.password = password
        ticket.overrides = overrides(for: job)
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
    static func colorMode(_ keyword: String?, colorPrinter: Bool) -> ColorMode {
        switch keyword {
        case "bi-level", "process-bi-level": .biLevel
        case "monochrome", "auto-monochrome", "process-monochrome": .monochrome
        default: colorPrinter ? .color : .monochrome
        }
    }

    /// The media size and margins: media-col, else media, else the printer's media-col-default.
    static func media(job: RenderJob) -> (width: Int, height: Int, margins: Margins) {
        if let requested = requestedMedia(in: job.ticket, printer: job.printerAttributes) { return requested }
        let defaultCol = job.printerAttributes["media-col-default"]?.value?.collectionValue
        if let (w, h) = size(of: defaultCol) { return (w, h, margins(of: defaultCol)) }
        return (21_590, 27_940, margins(of: defaultCol))
    }

    /// The media `attributes` (a job's template attributes or an override's members) ask for: media-col with a
    /// media-size, else a media name; margins the request leaves out are the printer's media-col-default's. Nil
    /// when they ask for no size.
    static func requestedMedia(in attributes: [IPPAttribute], printer: [String: IPPAttribute])
        -> (width: Int, height: Int, margins: Margins)?
    {
        let defaultMargins = margins(of: printer["media-col-default"]?.value?.collectionValue)
        if let col = attributes.first(where: { $0.name == "media-col" })?.value?.collectionValue,
            let (w, h) = size(of: col)
        {
            let given = margins(of: col)
            return (w, h, given.isEmpty ? defaultMargins : given)
        }
        if let name = attributes.first(where: { $0.name == "media" })?.value?.stringValue,
            let size = MediaSize(pwgName: name)
        {
            return (Int(size.width), Int(size.height), defaultMargins)
        }
        return nil
    }

    /// The page overrides of a job (PWG 5100.6 section 6.1): the pages and documents of each `overrides` value
    /// and the media, sides and orientation it gives them.
    static func overrides(for job: RenderJob) -> [PageOverride] {
        let values = job.ticket.first { $0.name == "overrides" }?.values ?? []
        return values.compactMap { (value) -> PageOverride? in
            guard let members = value.collectionValue else { return nil }
            func ranges(_ name: String) -> [PageRange] {
                (members.first { $0.name == name }?.values ?? []).compactMap {
                    guard case .rangeOfInteger(let range) = $0 else { return nil }
                    return PageRange(lower: Int(range.lowerBound), upper: Int(range.upperBound))
                }
            }
            var override = PageOverride(documents: ranges("document-numbers"), pages: ranges("pages"))
            if let (width, height, margins) = requestedMedia(in: members, printer: job.printerAttributes) {
                override.media = PageOverride.Media(
                    width: width, height: height, topMargin: margins.top ?? 0, bottomMargin: margins.bottom ?? 0,
                    leftMargin: margins.left ?? 0, rightMargin: margins.right ?? 0)
            }
            override.sides = members.first { $0.name == "sides" }?.value?.stringValue.flatMap(Sides.init(rawValue:))
            if let number = members.first(where: { $0.name == "orientation-requested" })?.value?.integerValue,
                let name = IPPEnumNames.keyword(attribute: "orientation-requested", value: number)
            {
                override.orientation = Orientation(rawValue: name)
            }
            guard override.media != nil || override.sides != nil || override.orientation != nil else { return nil }
            return override
        }
    }

    /// The margins of a media-col; nil where it gives none.
    private static func margins(of members: [IPPAttribute]?) -> Margins {
        func margin(_ side: String) -> Int? {
            members?.first { $0.name == "media-\(side)-margin" }?.value?.integerValue.map { Int($0) }
        }
        return Margins(top: margin("top"), bottom: margin("bottom"), left: margin("left"), right: margin("right"))
    }

    /// The media-size of a media-col in hundredths of a millimetre.
    private static func size(of members: [IPPAttribute]?) -> (Int, Int)? {
        guard let dims = members?.first(where: { $0.name == "media-size" })?.value?.collectionValue,
            let x = dims.first(where: { $0.name == "x-dimension" })?.value?.integerValue,
            let y = dims.first(where: { $0.name == "y-dimension" })?.value?.integerValue
        else { return nil }
        return (Int(x), Int(y))
    }
}
