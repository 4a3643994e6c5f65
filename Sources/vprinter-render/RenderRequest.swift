import Rasterizer

/// The JSON request the worker reads on stdin (docs/render-protocol.md, protocol 1).
struct RenderRequest: Decodable {
    /// The protocol version this worker speaks.
    static let protocolVersion = 1

    var protocolVersion: Int
    var folder: String
    var documents: [JobRenderer.Document]
    var ticket: JobTicket
    var limits: RenderLimits
    var threads: Int?
    var resourceLimits: ResourceLimits?

    /// Memory and CPU limits the worker sets on itself (setrlimit), when the parent asks for them.
    struct ResourceLimits: Decodable {
        var addressSpace: Int?
        var cpuSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case addressSpace = "address-space"
            case cpuSeconds = "cpu-seconds"
        }
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case folder, documents, ticket, limits, threads
        case resourceLimits = "rlimits"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try container.decode(Int.self, forKey: .protocolVersion)
        folder = try container.decode(String.self, forKey: .folder)
        documents = try container.decode([DocumentEntry].self, forKey: .documents).map {
            JobRenderer.Document(path: $0.path, format: $0.format)
        }
        ticket = try container.decodeIfPresent(TicketEntry.self, forKey: .ticket)?.ticket ?? JobTicket()
        limits = try container.decodeIfPresent(LimitsEntry.self, forKey: .limits)?.limits ?? RenderLimits()
        threads = try container.decodeIfPresent(Int.self, forKey: .threads)
        resourceLimits = try container.decodeIfPresent(ResourceLimits.self, forKey: .resourceLimits)
    }

    private struct DocumentEntry: Decodable {
        var path: String
        var format: String?
    }

    /// The ticket with IPP attribute names; every key is optional.
    private struct TicketEntry: Decodable {
        var ticket = JobTicket()

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        private struct Range: Decodable {
            var lower: Int
            var upper: Int
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            func int(_ name: String) throws -> Int? { try c.decodeIfPresent(Int.self, forKey: Key(stringValue: name)) }
            func string(_ name: String) throws -> String? {
                try c.decodeIfPresent(String.self, forKey: Key(stringValue: name))
            }
            func keyword<T: RawRepresentable>(_ name: String, _ type: T.Type) throws -> T? where T.RawValue == String {
                guard let text = try string(name) else { return nil }
                guard let value = T(rawValue: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: Key(stringValue: name), in: c, debugDescription: "unknown value \(text)")
                }
                return value
            }
            if let v = try int("media-width") { ticket.mediaWidth = v }
            if let v = try int("media-height") { ticket.mediaHeight = v }
            if let v = try int("media-top-margin") { ticket.topMargin = v }
            if let v = try int("media-bottom-margin") { ticket.bottomMargin = v }
            if let v = try int("media-left-margin") { ticket.leftMargin = v }
            if let v = try int("media-right-margin") { ticket.rightMargin = v }
            if let v = try keyword("sides", Sides.self) { ticket.sides = v }
            if let v = try int("number-up") { ticket.numberUp = v }
            if let v = try keyword("presentation-direction-number-up", PresentationDirection.self) {
                ticket.presentationDirection = v
            }
            if let v = try int("copies") { ticket.copies = v }
            if let text = try string("print-color-mode") {
                // PWG 5100.13 section 6.2.3: the auto and process- modes print like their plain counterparts.
                let aliases = [
                    "auto": "color", "auto-monochrome": "monochrome", "process-monochrome": "monochrome",
                    "process-bi-level": "bi-level", "highlight": "color",
                ]
                guard let mode = ColorMode(rawValue: aliases[text] ?? text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: Key(stringValue: "print-color-mode"), in: c, debugDescription: "unknown value \(text)")
                }
                ticket.colorMode = mode
            }
            if let v = try keyword("print-scaling", Scaling.self) { ticket.scaling = v }
            // orientation-requested "none" (RFC 8011 section 5.2.10, value 7) leaves pages to turn automatically.
            if try string("orientation-requested") != "none" {
                if let v = try keyword("orientation-requested", Orientation.self) { ticket.orientation = v }
            }
            if let ranges = try c.decodeIfPresent([Range].self, forKey: Key(stringValue: "page-ranges")) {
                ticket.pageRanges = ranges.map { PageRange(lower: $0.lower, upper: $0.upper) }
            }
            if let v = try int("dpi") { ticket.resolution = v }
            if let v = try int("raster-max-dpi") { ticket.rasterMaximumResolution = v }
            if let v = try c.decodeIfPresent(Bool.self, forKey: Key(stringValue: "media-from-document")) {
                ticket.mediaFromDocument = v
            }
            if let v = try string("document-password") { ticket.password = v }
            if let v = try keyword("sheet-back", SheetBack.self) { ticket.sheetBack = v }
            if let v = try keyword("multiple-document-handling", MultipleDocumentHandling.self) {
                ticket.multipleDocumentHandling = v
            }
        }
    }

    /// Limits with the names of docs/render-protocol.md; every key is optional.
    private struct LimitsEntry: Decodable {
        var limits = RenderLimits()

        enum CodingKeys: String, CodingKey {
            case maximumDimension = "max-dimension"
            case maximumPagePixels = "max-page-pixels"
            case maximumImagePixels = "max-image-pixels"
            case maximumPages = "max-pages"
            case maximumResolution = "max-dpi"
            case maximumSheetPixels = "max-sheet-pixels"
            case maximumImageFileSize = "max-image-file-size"
            case maximumInterpreterSeconds = "max-interpreter-seconds"
            case maximumInterpreterMemory = "max-interpreter-memory"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumDimension) { limits.maximumDimension = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumPagePixels) { limits.maximumPagePixels = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumImagePixels) { limits.maximumImagePixels = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumPages) { limits.maximumPages = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumResolution) { limits.maximumResolution = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumSheetPixels) { limits.maximumSheetPixels = v }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumImageFileSize) {
                limits.maximumImageFileSize = v
            }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumInterpreterSeconds), v > 0 {
                limits.maximumInterpreterSeconds = v
            }
            if let v = try c.decodeIfPresent(Int.self, forKey: .maximumInterpreterMemory), v > 0 {
                limits.maximumInterpreterMemory = v
            }
        }
    }
}
