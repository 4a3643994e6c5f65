/// One printer-state-reasons keyword (RFC 8011 section 5.4.12): what is wrong or going on, and, as its suffix, how
/// severe it is. An `-error` reason stops the printer; `-warning` and `-report` reasons do not; reasons such as
/// `paused` and `shutdown` carry no suffix. Any keyword a fault names is kept, the registered ones and others.
public struct PrinterStateReason: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible, CustomDebugStringConvertible
{
    /// The severity a reason's suffix states.
    public enum Severity: Sendable {
        case error, warning, report
        /// No suffix: `paused`, `moving-to-paused`, `shutdown`, `identify-printer-requested`.
        case unstated
    }

    /// The keyword as IPP and the job record spell it: `media-empty-error`.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }
    /// The keyword quoted, as a list of reasons prints it (a fault's effect in the fault API: `addReasons(["x"])`).
    public var debugDescription: String { "\"\(rawValue)\"" }

    public var severity: Severity {
        if rawValue.hasSuffix("-error") { return .error }
        if rawValue.hasSuffix("-warning") { return .warning }
        if rawValue.hasSuffix("-report") { return .report }
        return .unstated
    }

    /// The reason without its severity suffix: `media-empty` for `media-empty-error`.
    public var base: String {
        switch severity {
        case .error: String(rawValue.dropLast("-error".count))
        case .warning: String(rawValue.dropLast("-warning".count))
        case .report: String(rawValue.dropLast("-report".count))
        case .unstated: rawValue
        }
    }

    /// Whether the printer stops while the reason stands.
    public var stopsPrinter: Bool { severity == .error }

    /// The keyword a printer with no reason states.
    public static let none: Self = "none"
    public static let paused: Self = "paused"
    public static let movingToPaused: Self = "moving-to-paused"
    public static let shutdown: Self = "shutdown"
    public static let holdNewJobs: Self = "hold-new-jobs"
    /// The disk of the output folder is below its floor (PWG 5100.9 section 5.1.4): no job is accepted.
    public static let spoolAreaFull: Self = "spool-area-full"
    public static let identifyPrinterRequested: Self = "identify-printer-requested"

    /// The keywords of a set of reasons as IPP states them: `none` alone when there is no reason.
    public static func keywords(of reasons: [Self]) -> [String] {
        reasons.isEmpty ? [none.rawValue] : reasons.map(\.rawValue)
    }
}
