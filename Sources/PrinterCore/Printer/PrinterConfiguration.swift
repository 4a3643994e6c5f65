import HTTPServer
import IPP
import Profiles

/// What a printer is, fixed for its lifetime: identity, static attributes, where it records jobs.
public struct PrinterConfiguration: Sendable {
    /// printer-name, also the DNS-SD service name unless renamed.
    public var name: String
    /// The HTTP path of the printer: `/ipp/print`, or `/ipp/print/<name>` when several printers run.
    public var resourcePath: String
    /// printer-uuid, `urn:uuid:...`.
    public var uuid: String
    /// The static printer description and job template attributes (from the profile).
    public var attributes: [IPPAttribute]
    /// The output folder; jobs go to `<outputDirectory>/jobs/<id>`.
    public var outputDirectory: String
    /// The largest decompressed document accepted, in bytes.
    public var maximumDocumentSize: Int
    /// The most jobs kept (records and folders); the oldest ended jobs go first, and while this many have not ended
    /// (held, pending, printing) new jobs are refused. Nil keeps every job (`vprinter` itself always sets one:
    /// `defaultMaximumJobs` unless `--max-jobs` says otherwise).
    public var maximumJobs: Int?
    /// The free space the output folder's disk must keep to accept jobs (`--min-free-disk`); nil: no floor.
    public var diskFloor: DiskFloor?
    /// Where Print-URI and Send-URI may fetch from (`--fetch-allow`, `--fetch-deny`; docs/security.md).
    public var fetchPolicy = FetchPolicy.standard
    /// Whether printing lowers tray, supply and bin levels (`--consumables tracked`).
    public var tracksConsumables = false
    /// How fast the simulated device prints.
    public var speed: PrintSpeed = .instant
    /// Whether the printer starts strict (`--strict`): it refuses what a lenient printer substitutes or ignores
    /// (`Printer.isStrict`, which the API may change).
    public var strict = false
    /// The profile's raw attributes, which win even over the attributes the implementation decides
    /// (operations-supported is kept to operations vprinter implements).
    public var overridingAttributes: [IPPAttribute] = []
    /// TLS and authentication, as the printer's URIs and attributes state them (docs/security.md).
    public var security = PrinterSecurity()
    /// The profile's scanner (docs/scanning.md); nil when the printer does not scan.
    public var scanner: ProfileFeatures.Scanner?
    /// What the scanner scans when no source was sent through the API (`--scan-source`); nil: the test chart.
    public var scanSource: ScanSourceFiles?

    public init(
        name: String, resourcePath: String, uuid: String, attributes: [IPPAttribute], outputDirectory: String,
        maximumDocumentSize: Int = PrinterConfiguration.defaultMaximumDocumentSize, maximumJobs: Int? = nil
    ) {
        self.maximumJobs = maximumJobs
        self.name = name
        self.resourcePath = resourcePath
        self.uuid = uuid
        self.attributes = attributes
        self.outputDirectory = outputDirectory
        self.maximumDocumentSize = maximumDocumentSize
    }

    /// 4 GiB: large enough for a long raster job, small enough to stop a runaway client.
    public static let defaultMaximumDocumentSize = 4 << 30
    /// The jobs a printer of `vprinter` keeps when `--max-jobs` is not given.
    public static let defaultMaximumJobs = 1000

    /// A printer name as a URL path segment: letters, digits, `-`, `_` and `.`; anything else becomes `-`.
    public static func pathSegment(for name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
    }

    /// A stable printer-uuid for a printer name: the same name gives the same UUID across restarts.
    public static func uuid(forName name: String) -> String {
        var hash = SHA256()
        hash.update(Array("vprinter printer \(name)".utf8))
        let hex = Array(hash.hexDigest().utf8.prefix(32))
        var chars = hex.map { Character(Unicode.Scalar($0)) }
        chars[12] = "5"  // version 5 style: name-based with SHA
        let variant = "89ab"
        let index = Int(String(chars[16]), radix: 16) ?? 0
        chars[16] = Array(variant)[index % 4]
        let s = String(chars)
        func part(_ a: Int, _ b: Int) -> Substring {
            s[s.index(s.startIndex, offsetBy: a)..<s.index(s.startIndex, offsetBy: b)]
        }
        return "urn:uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}

/// How fast the simulated device prints (`--speed`).
public enum PrintSpeed: String, Sendable, CaseIterable {
    /// Jobs complete as soon as they are rendered.
    case instant
    /// Each impression takes as long as pages-per-minute (or -color) says.
    case realistic
}
