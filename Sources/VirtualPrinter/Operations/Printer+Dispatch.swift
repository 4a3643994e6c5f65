import IPP

extension Printer {
    /// The operations this printer implements (operations-supported).
    public static let supportedOperations: [IPPOperation] = [
        .printJob, .validateJob, .createJob, .sendDocument, .cancelJob, .getJobAttributes, .getJobs,
        .getPrinterAttributes, .cancelJobs, .cancelMyJobs, .closeJob, .identifyPrinter,
    ]

    /// Runs one operation of a request that passed the common checks.
    func perform(_ context: IPPRequestContext) -> OperationOutcome {
        switch context.operation {
        case .printJob: return printJob(context)
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
