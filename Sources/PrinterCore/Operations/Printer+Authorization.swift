import IPP

/// Who may run which operation once credentials are asked for (`--user`, docs/security.md): any
/// authenticated user prints and manages their own jobs, admins (`--admin`) also run the printer
/// administration operations and act on every job. Without credentials asked for, everyone may do everything.
extension Printer {
    /// Operations that administer the printer rather than one's own job (RFC 8011, RFC 3998, PWG 5100.11).
    package static let administrativeOperations: Set<IPPOperation> = [
        .pausePrinter, .pausePrinterAfterCurrentJob, .resumePrinter, .enablePrinter, .disablePrinter,
        .holdNewJobs, .releaseHeldNewJobs, .shutdownPrinter, .startupPrinter, .restartPrinter, .purgeJobs,
        .setPrinterAttributes, .cancelJobs, .cancelCurrentJob, .suspendCurrentJob, .promoteJob, .scheduleJobAfter,
    ]

    /// Operations on one job (job-id, job-uri or notify-job-id), which its owner and admins may run.
    static let jobOwnerOperations: Set<IPPOperation> = [
        .cancelJob, .holdJob, .releaseJob, .restartJob, .reprocessJob, .resubmitJob, .resumeJob, .sendDocument,
        .sendURI, .closeJob, .cancelDocument, .getJobAttributes, .getDocumentAttributes, .getDocuments,
        .setJobAttributes,
        .setDocumentAttributes, .createJobSubscriptions,
    ]

    /// Operations open to clients without credentials: reading the printer's capabilities, which clients
    /// do before they print (as with CUPS).
    public static let openOperations: Set<IPPOperation> = [.getPrinterAttributes, .getPrinterSupportedValues]

    /// Why an authenticated requester may not run this operation (client-error-not-authorized), or nil.
    package func authorizationRefusal(_ context: IPPRequestContext) -> IPPResponseError? {
        guard context.requiresAuthentication, !context.identity.isAdmin else { return nil }
        let operation = context.operation
        if Self.administrativeOperations.contains(operation) {
            return IPPResponseError(
                .clientErrorNotAuthorized, "\(operation) is for admins; \(context.user) is not one (--admin).")
        }
        guard Self.jobOwnerOperations.contains(operation) else { return nil }
        var jobID = context.jobID
        if operation == .createJobSubscriptions, let id = context.attribute("notify-job-id")?.value?.integerValue {
            jobID = Int(id)
        }
        guard let jobID, let job = job(jobID), job.user != context.user else { return nil }
        return IPPResponseError(.clientErrorNotAuthorized, "Job \(jobID) belongs to another user.")
    }
}
