/// The job-state enum (RFC 8011 section 5.3.7).
public enum JobState: Int32, Sendable, CaseIterable, Codable {
    case pending = 3
    case pendingHeld = 4
    case processing = 5
    case processingStopped = 6
    case canceled = 7
    case aborted = 8
    case completed = 9

    /// The keyword IPP uses for the state, e.g. `processing-stopped`.
    public var keyword: String {
        switch self {
        case .pending: "pending"
        case .pendingHeld: "pending-held"
        case .processing: "processing"
        case .processingStopped: "processing-stopped"
        case .canceled: "canceled"
        case .aborted: "aborted"
        case .completed: "completed"
        }
    }

    /// The state named by a keyword.
    public init?(keyword: String) {
        guard let state = Self.allCases.first(where: { $0.keyword == keyword }) else { return nil }
        self = state
    }

    /// True once the job has ended: canceled, aborted or completed.
    public var isTerminal: Bool { self == .canceled || self == .aborted || self == .completed }

    /// Written and read as its keyword, as the job record has it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let keyword = try container.decode(String.self)
        guard let state = Self(keyword: keyword) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no job state is named \(keyword)")
        }
        self = state
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(keyword)
    }
}
