import IPP

extension Printer {
    /// Runs one operation of a request that passed the common checks.
    package func perform(_ context: IPPRequestContext) -> OperationOutcome {
        // A profile may list fewer operations than vprinter implements (a clone of a simpler printer): those
        // not listed are refused as that printer refuses them.
        if let listed = context.attributes["operations-supported"],
            !listed.values.contains(.enumValue(Int32(context.operation.rawValue)))
        {
            return .response(
                .error(.serverErrorOperationNotSupported, "\(context.operation) is not supported by this printer."))
        }
        switch context.operation {
        case .printJob: return printJob(context)
        case .printURI: return .response(printURI(context))
        case .sendURI: return .response(sendURI(context))
        case .validateJob: return .response(validateJob(context))
        case .createJob: return .response(createJob(context))
        case .sendDocument: return sendDocument(context)
        case .closeJob: return .response(closeJob(context))
        case .cancelJob: return .response(cancelJob(context))
        case .cancelJobs, .cancelMyJobs: return .response(cancelJobs(context))
        case .getJobAttributes: return .response(getJobAttributes(context))
        case .getJobs: return .response(getJobs(context))
        case .getPrinterAttributes: return .response(getPrinterAttributes(context))
        case .identifyPrinter: return .response(identifyPrinter(context))
        case .holdJob: return .response(holdJob(context))
        case .releaseJob: return .response(releaseJob(context))
        case .restartJob: return .response(restartJob(context))
        case .reprocessJob, .resubmitJob: return .response(copyJob(context))
        case .promoteJob: return .response(promoteJob(context))
        case .scheduleJobAfter: return .response(scheduleJobAfter(context))
        case .cancelCurrentJob: return .response(cancelCurrentJob(context))
        case .suspendCurrentJob: return .response(suspendCurrentJob(context))
        case .resumeJob: return .response(resumeJob(context))
        case .pausePrinter, .pausePrinterAfterCurrentJob: return .response(pausePrinter(context))
        case .resumePrinter: return .response(resumePrinter(context))
        case .enablePrinter: return .response(setAcceptingJobs(context, true))
        case .disablePrinter: return .response(setAcceptingJobs(context, false))
        case .holdNewJobs: return .response(holdNewJobs(context))
        case .releaseHeldNewJobs: return .response(releaseHeldNewJobs(context))
        case .shutdownPrinter: return .response(shutdownPrinter(context))
        case .startupPrinter, .restartPrinter: return .response(startupPrinter(context))
        case .purgeJobs: return .response(purgeJobs(context))
        case .validateDocument: return .response(validateDocument(context))
        case .cancelDocument: return .response(cancelDocument(context))
        case .getDocumentAttributes: return .response(getDocumentAttributes(context))
        case .getDocuments: return .response(getDocuments(context))
        case .setDocumentAttributes: return .response(setDocumentAttributes(context))
        case .setPrinterAttributes: return .response(setPrinterAttributes(context))
        case .setJobAttributes: return .response(setJobAttributes(context))
        case .getPrinterSupportedValues: return .response(getPrinterSupportedValues(context))
        case .createPrinterSubscriptions, .createJobSubscriptions: return .response(createSubscriptions(context))
        case .getSubscriptionAttributes: return .response(getSubscriptionAttributes(context))
        case .getSubscriptions: return .response(getSubscriptions(context))
        case .renewSubscription: return .response(renewSubscription(context))
        case .cancelSubscription: return .response(cancelSubscription(context))
        case .getNotifications: return .response(getNotifications(context))
        default:
            return .response(
                .error(.serverErrorOperationNotSupported, "\(context.operation) is not supported by this printer."))
        }
    }
}
