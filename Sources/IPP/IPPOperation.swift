/// An IPP operation-id (RFC 8011 section 5.4.15, PWG 5100.x, cups/ipp.h).
///
/// Open set: an unknown code survives as its raw value and prints in hex.
public struct IPPOperation: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let printJob = Self(rawValue: 0x0002)
    public static let printURI = Self(rawValue: 0x0003)
    public static let validateJob = Self(rawValue: 0x0004)
    public static let createJob = Self(rawValue: 0x0005)
    public static let sendDocument = Self(rawValue: 0x0006)
    public static let sendURI = Self(rawValue: 0x0007)
    public static let cancelJob = Self(rawValue: 0x0008)
    public static let getJobAttributes = Self(rawValue: 0x0009)
    public static let getJobs = Self(rawValue: 0x000A)
    public static let getPrinterAttributes = Self(rawValue: 0x000B)
    public static let holdJob = Self(rawValue: 0x000C)
    public static let releaseJob = Self(rawValue: 0x000D)
    public static let restartJob = Self(rawValue: 0x000E)
    public static let pausePrinter = Self(rawValue: 0x0010)
    public static let resumePrinter = Self(rawValue: 0x0011)
    public static let purgeJobs = Self(rawValue: 0x0012)
    public static let setPrinterAttributes = Self(rawValue: 0x0013)
    public static let setJobAttributes = Self(rawValue: 0x0014)
    public static let getPrinterSupportedValues = Self(rawValue: 0x0015)
    public static let createPrinterSubscriptions = Self(rawValue: 0x0016)
    public static let createJobSubscriptions = Self(rawValue: 0x0017)
    public static let getSubscriptionAttributes = Self(rawValue: 0x0018)
    public static let getSubscriptions = Self(rawValue: 0x0019)
    public static let renewSubscription = Self(rawValue: 0x001A)
    public static let cancelSubscription = Self(rawValue: 0x001B)
    public static let getNotifications = Self(rawValue: 0x001C)
    public static let enablePrinter = Self(rawValue: 0x0022)
    public static let disablePrinter = Self(rawValue: 0x0023)
    public static let holdNewJobs = Self(rawValue: 0x0025)
    public static let releaseHeldNewJobs = Self(rawValue: 0x0026)
    public static let pausePrinterAfterCurrentJob = Self(rawValue: 0x0024)
    public static let restartPrinter = Self(rawValue: 0x0029)
    public static let shutdownPrinter = Self(rawValue: 0x002A)
    public static let startupPrinter = Self(rawValue: 0x002B)
    public static let reprocessJob = Self(rawValue: 0x002C)
    public static let cancelCurrentJob = Self(rawValue: 0x002D)
    public static let suspendCurrentJob = Self(rawValue: 0x002E)
    public static let resumeJob = Self(rawValue: 0x002F)
    public static let promoteJob = Self(rawValue: 0x0030)
    public static let scheduleJobAfter = Self(rawValue: 0x0031)
    public static let cancelDocument = Self(rawValue: 0x0033)
    public static let getDocumentAttributes = Self(rawValue: 0x0034)
    public static let getDocuments = Self(rawValue: 0x0035)
    public static let setDocumentAttributes = Self(rawValue: 0x0037)
    public static let resubmitJob = Self(rawValue: 0x003A)
    public static let cancelJobs = Self(rawValue: 0x0038)
    public static let cancelMyJobs = Self(rawValue: 0x0039)
    public static let closeJob = Self(rawValue: 0x003B)
    public static let identifyPrinter = Self(rawValue: 0x003C)
    public static let validateDocument = Self(rawValue: 0x003D)
    /// PWG 5100.22 (System Service) section 4.
    public static let createPrinter = Self(rawValue: 0x004C)
    public static let deletePrinter = Self(rawValue: 0x004E)
    public static let getPrinters = Self(rawValue: 0x004F)
    public static let shutdownOnePrinter = Self(rawValue: 0x0050)
    public static let startupOnePrinter = Self(rawValue: 0x0051)
    public static let disableAllPrinters = Self(rawValue: 0x0059)
    public static let enableAllPrinters = Self(rawValue: 0x005A)
    public static let getSystemAttributes = Self(rawValue: 0x005B)
    public static let getSystemSupportedValues = Self(rawValue: 0x005C)

    /// The operation's name as the standards spell it, e.g. `Print-Job`, or hex for an unknown code.
    public var description: String {
        Self.names[rawValue] ?? "0x" + hex4(rawValue)
    }

    private static let names: [UInt16: String] = [
        0x0002: "Print-Job", 0x0003: "Print-URI", 0x0004: "Validate-Job", 0x0005: "Create-Job",
        0x0006: "Send-Document", 0x0007: "Send-URI", 0x0008: "Cancel-Job", 0x0009: "Get-Job-Attributes",
        0x000A: "Get-Jobs", 0x000B: "Get-Printer-Attributes", 0x000C: "Hold-Job", 0x000D: "Release-Job",
        0x000E: "Restart-Job", 0x0010: "Pause-Printer", 0x0011: "Resume-Printer", 0x0012: "Purge-Jobs",
        0x0013: "Set-Printer-Attributes", 0x0014: "Set-Job-Attributes", 0x0015: "Get-Printer-Supported-Values",
        0x0016: "Create-Printer-Subscriptions", 0x0017: "Create-Job-Subscriptions",
        0x0018: "Get-Subscription-Attributes", 0x0019: "Get-Subscriptions", 0x001A: "Renew-Subscription",
        0x001B: "Cancel-Subscription", 0x001C: "Get-Notifications", 0x0022: "Enable-Printer",
        0x0023: "Disable-Printer", 0x0025: "Hold-New-Jobs", 0x0026: "Release-Held-New-Jobs",
        0x0024: "Pause-Printer-After-Current-Job", 0x0029: "Restart-Printer", 0x002A: "Shutdown-Printer",
        0x002B: "Startup-Printer", 0x002C: "Reprocess-Job", 0x002D: "Cancel-Current-Job",
        0x002E: "Suspend-Current-Job", 0x002F: "Resume-Job", 0x0030: "Promote-Job", 0x0031: "Schedule-Job-After",
        0x0033: "Cancel-Document", 0x0034: "Get-Document-Attributes", 0x0035: "Get-Documents",
        0x0037: "Set-Document-Attributes", 0x003A: "Resubmit-Job", 0x0038: "Cancel-Jobs", 0x0039: "Cancel-My-Jobs",
        0x003B: "Close-Job",
        0x003C: "Identify-Printer", 0x003D: "Validate-Document",
        0x004C: "Create-Printer", 0x004E: "Delete-Printer", 0x004F: "Get-Printers", 0x0050: "Shutdown-One-Printer",
        0x0051: "Startup-One-Printer", 0x0059: "Disable-All-Printers", 0x005A: "Enable-All-Printers",
        0x005B: "Get-System-Attributes", 0x005C: "Get-System-Supported-Values",
    ]
}

/// Four lower-case hex digits, zero-padded.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
