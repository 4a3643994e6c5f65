import HTTPServer

/// What a printer is to be: its profile, name, own port, scenarios and per-printer options. The command
/// line, `--config` files, `POST /api/v1/printers` and Create-Printer all describe printers this way.
public struct PrinterSpec: Sendable {
    /// A shipped profile's name or a profile file's path.
    public var profile: String
    /// printer-name and the DNS-SD service name; nil: `vprinter <profile>` (made unique).
    public var name: String?
    /// A port of its own besides the process's port (0: any free port); nil: the process's port only.
    public var port: UInt16?
    /// Scenarios whose faults the printer plays: files, or names of shipped scenarios (`out-of-paper`).
    public var scenarios: [String] = []
    /// Scenarios given inline (a JSON object in `POST /api/v1/printers`).
    public var inlineScenarios: [Scenario] = []
    /// Per-printer options; nil: the process's setting.
    public var speed: PrintSpeed?
    public var tracksConsumables: Bool?
    public var maximumJobs: Int?
    public var maximumDocumentSize: Int?
    /// Refuses what a lenient printer substitutes or ignores (`--strict`).
    public var strict: Bool?
    /// The printer's own `fetch-allow` and `fetch-deny` rules, after the process's (a `--config` file's printer
    /// only: a request that makes a printer cannot widen where the printer fetches from).
    public var fetchPolicy = FetchPolicy()
    /// printer-info and printer-location, when given (Create-Printer).
    public var info: String?
    public var location: String?

    public init(profile: String, name: String? = nil, port: UInt16? = nil, scenarios: [String] = []) {
        self.profile = profile
        self.name = name
        self.port = port
        self.scenarios = scenarios
    }

    /// The longest printer name accepted, in bytes (printer-name is name(127), RFC 8011 section 5.4.4; the
    /// DNS-SD instance name allows 63).
    public static let maximumNameBytes = 63
}
