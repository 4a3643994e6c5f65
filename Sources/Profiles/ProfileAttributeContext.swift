import IPP

/// What `PrinterProfile.printerAttributes(context:)` needs beyond the profile: facts the printer itself decides.
public struct ProfileAttributeContext: Sendable {
    /// The printer's name; `printer-info` when the profile states none.
    public var printerName: String
    /// `operations-supported`, in this order.
    public var operations: [IPPOperation]
    /// `which-jobs-supported` keywords (PWG 5100.7 section 6.3.x).
    public var whichJobs: [String]
    /// `multiple-operation-time-out` in seconds (RFC 8011 section 5.4.31); must be > 0.
    public var multipleOperationTimeOut: Int32
    /// `multiple-operation-time-out-action`: abort-job, hold-job or process-job (PWG 5100.13).
    public var multipleOperationTimeOutAction: String

    /// The operations of an IPP Everywhere printer (PWG 5100.14 section 5.1) plus Cancel-Jobs.
    public static let everywhereOperations: [IPPOperation] = [
        .printJob, .validateJob, .createJob, .sendDocument, .cancelJob, .getJobAttributes, .getJobs,
        .getPrinterAttributes, .cancelJobs, .cancelMyJobs, .closeJob, .identifyPrinter,
    ]

    public init(
        printerName: String, operations: [IPPOperation] = Self.everywhereOperations,
        whichJobs: [String] = ["completed", "not-completed"], multipleOperationTimeOut: Int32 = 60,
        multipleOperationTimeOutAction: String = "abort-job"
    ) {
        self.printerName = printerName
        self.operations = operations
        self.whichJobs = whichJobs
        self.multipleOperationTimeOut = multipleOperationTimeOut
        self.multipleOperationTimeOutAction = multipleOperationTimeOutAction
    }
}
