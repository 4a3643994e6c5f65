import PrintModel

/// What a PCLm file holds, found by checking it against the structure PCLm requires.
///
/// PCLm (Wi-Fi Alliance Wi-Fi Direct Print Services and Mopria) is a subset of PDF: the `%PDF-` header is followed
/// by a `%PCLm 1.0` comment; every page is a stack of strip images (8-bit DeviceRGB or DeviceGray) of one strip
/// height, the last strip of a page possibly shorter; strips are compressed with DCT (JPEG), Flate or RunLength;
/// there are no object streams. Poppler renders such a file as the PDF it is; this check runs first so that a file
/// labelled `application/PCLm` that is not PCLm, or is cut short, is refused with a message saying what is wrong.
public struct PCLmStructure: Sendable, Equatable {
    /// One page.
    public struct Page: Sendable, Equatable {
        /// Width of the strips in pixels.
        public var width: Int
        /// Height of the page in pixels: the strips' heights added up.
        public var height: Int
        /// The height of every strip but possibly the last.
        public var stripHeight: Int
        /// Number of strips.
        public var strips: Int
        /// Resolution in dots per inch, from the strip width and the MediaBox width.
        public var resolution: Int
    }

    /// The pages in order.
    public var pages: [Page]
    /// The strip filters used, e.g. `FlateDecode`.
    public var filters: Set<String>

    /// The resolution of the first page.
    public var resolution: Int { pages.first?.resolution ?? 0 }

    /// The most indirect objects a checked file may hold.
    public static let maximumObjects = 1_000_000
    /// Strip compressions PCLm allows.
    static let filters: Set<String> = ["DCTDecode", "FlateDecode", "RunLengthDecode"]

    /// Checks the file at `path`; throws `.malformed` naming the first problem, or `.truncated`.
    public static func check(path: String, maximumObjects: Int = maximumObjects) throws(RasterError) -> PCLmStructure {
        let head = try FileContents.prefix(
            path: path, count: DocumentFormat.detectionLength + DocumentFormat.pclmMarkerWindow)
        let header = Array("%PDF-".utf8)
        let start =
            head.count >= header.count
            ? (0...(head.count - header.count)).first { head[$0..<($0 + header.count)].elementsEqual(header) } : nil
        guard let start, DocumentFormat.hasPCLmMarker(head[start...]) else {
            throw .malformed(
                format: "PCLm",
                reason: "no '%PCLm 1.0' comment after the '%PDF-' header (a PDF that is not PCLm?)")
        }
        let scanner = PDFObjectScanner(ByteReader(try FileInput(path: path)))
        var objects: [Int: PDFValue] = [:]
        var trailer: PDFValue?
        var endOfFile = false
        while let item = try scanner.next() {
            switch item {
            case .object(let number, _, let value, _, _):
                try RenderLimits.check("PCLm objects", objects.count + 1, maximumObjects)
                if value["Type"]?.nameValue == "ObjStm" {
                    throw .malformed(format: "PCLm", reason: "object \(number) is an object stream, which PCLm forbids")
                }
                objects[number] = value
                endOfFile = false
            case .trailer(let value):
                trailer = value
            case .comment(let text):
                if text.hasPrefix("%EOF") { endOfFile = true }
            case .startxref:
                break
            }
        }
        guard endOfFile, let trailer else {
            throw .truncated(what: "PCLm file (no trailer and %%EOF at its end)", offset: scanner.offset)
        }
        return try PCLmStructure(objects: objects, trailer: trailer)
    }

    private init(objects: [Int: PDFValue], trailer: PDFValue) throws(RasterError) {
        func resolve(_ value: PDFValue?) -> PDFValue? {
            if case .reference(let number, _)? = value { return objects[number] }
            return value
        }
        guard let root = resolve(trailer["Root"]), resolve(root["Pages"]) != nil else {
            throw .malformed(format: "PCLm", reason: "the trailer names no document catalog with a page tree")
        }
        let pageNodes = try PDFPageTree(root: root["Pages"], format: "PCLm") { objects[$0] }.pages.map {
            PDFValue.dictionary($0.effectiveEntries)
        }
        guard !pageNodes.isEmpty else { throw .malformed(format: "PCLm", reason: "the document has no pages") }
        var filters = Set<String>()
        pages = []
        for (index, node) in pageNodes.enumerated() {
            let page = try Self.page(node, number: index + 1, resolve: resolve, filters: &filters)
            pages.append(page)
        }
        self.filters = filters
    }

    /// Checks one page's strips.
    private static func page(
        _ node: PDFValue, number: Int, resolve: (PDFValue?) -> PDFValue?, filters: inout Set<String>
    ) throws(RasterError) -> Page {
        func fail(_ reason: String) -> RasterError { .malformed(format: "PCLm", reason: "page \(number): \(reason)") }
        guard case .array(let box)? = resolve(node["MediaBox"]), box.count == 4,
            let x0 = box[0].numberValue, let y0 = box[1].numberValue, let x1 = box[2].numberValue,
            let y1 = box[3].numberValue, x1 - x0 > 0, y1 - y0 > 0, (x1 - x0).isFinite, (y1 - y0).isFinite
        else { throw fail("no MediaBox of four numbers") }
        let boxWidth = x1 - x0
        let boxHeight = y1 - y0
        guard case .dictionary(let xObjects)? = resolve(resolve(node["Resources"])?["XObject"]), !xObjects.isEmpty
        else { throw fail("no strip images (no /XObject resources)") }
        var width: Int?
        var heights: [Int] = []
        for (name, reference) in xObjects.sorted(by: { $0.key < $1.key }) {
            guard let image = resolve(reference) else { throw fail("strip /\(name) is missing (cut short?)") }
            guard image["Subtype"]?.nameValue == "Image" else { throw fail("/\(name) is not an image") }
            let filter: String?
            switch image["Filter"] {
            case .name(let single)?: filter = single
            case .array(let list)? where list.count == 1: filter = list[0].nameValue
            default: filter = nil
            }
            guard let filter, Self.filters.contains(filter) else {
                throw fail("strip /\(name) is not compressed with DCTDecode, FlateDecode or RunLengthDecode")
            }
            filters.insert(filter)
            guard let space = image["ColorSpace"]?.nameValue, space == "DeviceRGB" || space == "DeviceGray",
                image["BitsPerComponent"]?.integerValue == 8
            else { throw fail("strip /\(name) is not 8-bit DeviceRGB or DeviceGray") }
            guard let stripWidth = image["Width"]?.integerValue, let height = image["Height"]?.integerValue,
                stripWidth > 0, height > 0
            else { throw fail("strip /\(name) has no positive Width and Height") }
            if let width, width != stripWidth { throw fail("strips of different widths (\(width), \(stripWidth))") }
            width = stripWidth
            heights.append(height)
        }
        let stripHeight = heights.max() ?? 0
        let shorter = heights.filter { $0 != stripHeight }
        guard shorter.count <= 1 else {
            throw fail("strips of several heights \(Set(heights).sorted()): only the last may be shorter")
        }
        let pixelWidth = width ?? 0
        // Checked conversions and sums: a MediaBox of 1e-300 points or strips of Int.max lines are an error here.
        guard let resolution = Int(exactly: (Double(pixelWidth) * 72 / boxWidth).rounded()), resolution > 0 else {
            throw fail("strips \(pixelWidth) pixels wide on a MediaBox \(boxWidth) points wide give no resolution")
        }
        var height = 0
        for strip in heights {
            let (sum, overflow) = height.addingReportingOverflow(strip)
            guard !overflow else { throw fail("the strips' heights add up past \(Int.max) pixels") }
            height = sum
        }
        let expected = boxHeight * Double(pixelWidth) / boxWidth
        guard abs(Double(height) - expected) <= 2 else {
            let needed = Int(exactly: expected.rounded()).map(String.init) ?? "\(expected)"
            throw fail("the strips are \(height) pixels high, the page needs \(needed) (cut short?)")
        }
        return Page(
            width: pixelWidth, height: height, stripHeight: stripHeight, strips: heights.count, resolution: resolution)
    }
}
