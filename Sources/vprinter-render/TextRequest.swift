import Rasterizer

/// The JSON request for OCR of sides already rendered (docs/render-protocol.md, operation `recognize-text`).
struct TextRequest: Decodable {
    var folder: String
    var sides: [SideTextRecognition.Side]
    var languages: String
    var threads: Int?
    var resourceLimits: RenderRequest.ResourceLimits?

    enum CodingKeys: String, CodingKey {
        case folder, sides, languages, threads
        case resourceLimits = "rlimits"
    }

    private struct SideEntry: Decodable {
        var number: Int
        var file: String
        var dpi: Int
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        folder = try container.decode(String.self, forKey: .folder)
        sides = try container.decode([SideEntry].self, forKey: .sides).map {
            SideTextRecognition.Side(number: $0.number, file: $0.file, dpi: $0.dpi)
        }
        languages =
            try container.decodeIfPresent(String.self, forKey: .languages)
            ?? SideTextRecognition.defaultLanguages
        threads = try container.decodeIfPresent(Int.self, forKey: .threads)
        resourceLimits = try container.decodeIfPresent(RenderRequest.ResourceLimits.self, forKey: .resourceLimits)
    }
}

/// The request's protocol version and operation, read before the rest.
struct RequestKind: Decodable {
    var protocolVersion: Int
    /// Absent for a render; `recognize-text` for OCR.
    var operation: String?

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case operation
    }
}
