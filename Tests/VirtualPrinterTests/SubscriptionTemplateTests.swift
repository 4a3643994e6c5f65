import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Reading subscription-attributes groups: delivery method, events, lease, user data and job.
@Suite struct SubscriptionTemplateTests {
    static let ippget = IPPAttribute("notify-pull-method", .keyword("ippget"))

    func parse(
        _ attributes: [IPPAttribute], scope: SubscriptionTemplate.Scope = .printer,
        job: SubscriptionTemplate.JobLookup = .active
    ) throws(SubscriptionError) -> (template: SubscriptionTemplate, droppedEvents: Bool) {
        try SubscriptionTemplate.parse(
            IPPAttributeGroup(tag: .subscriptionAttributes, attributes: attributes), scope: scope
        ) { _ in job }
    }

    static let existingJob = SubscriptionTemplate.Scope.existingJob(operationJobID: nil)

    @Test func aPullSubscriptionGetsTheDefaults() throws {
        let (template, dropped) = try parse([Self.ippget])
        #expect(template.events == NotifyEvent.defaults)
        #expect(template.leaseDuration == SubscriptionLimits.defaultLeaseDuration)
        #expect(!dropped)
    }

    @Test func pushAndMissingOrDoubleDeliveryAreRefused() {
        let recipient = IPPAttribute("notify-recipient-uri", .uri("mailto:someone@example.com"))
        #expect(throws: SubscriptionError.unsupportedScheme(recipient)) { try parse([recipient]) }
        #expect(throws: SubscriptionError.twoDeliveryMethods) { try parse([recipient, Self.ippget]) }
        #expect(throws: SubscriptionError.noDeliveryMethod) { try parse([]) }
        let other = IPPAttribute("notify-pull-method", .keyword("smtp"))
        #expect(throws: SubscriptionError.unsupportedPullMethod(other)) { try parse([other]) }
    }

    @Test func unsupportedEventsAreRefused() {
        let events = IPPAttribute("notify-events", .keyword("job-created"), .keyword("printer-melted"))
        #expect(throws: SubscriptionError.unsupportedEvents(events)) { try parse([Self.ippget, events]) }
    }

    @Test func eventsPastTheMaximumAreDropped() throws {
        let count = SubscriptionLimits.maximumEventKeywords
        let atLimit = IPPAttribute(
            name: "notify-events", values: Array(repeating: .keyword("job-created"), count: count))
        #expect(try parse([Self.ippget, atLimit]).droppedEvents == false)
        var past = atLimit
        past.values.append(.keyword("job-completed"))
        let (template, dropped) = try parse([Self.ippget, past])
        #expect(dropped)
        #expect(template.events.count == count)
    }

    @Test func userDataOfSixtyFourOctetsIsTooLong() throws {
        let limit = SubscriptionLimits.maximumUserDataLength
        let fits = IPPAttribute("notify-user-data", .octetString(Array(repeating: 65, count: limit)))
        #expect(try parse([Self.ippget, fits]).template.userData?.count == limit)
        let long = IPPAttribute("notify-user-data", .octetString(Array(repeating: 65, count: limit + 1)))
        #expect(throws: SubscriptionError.userDataTooLong(long)) { try parse([Self.ippget, long]) }
    }

    @Test func leasesAreBoundedByTheMaximum() throws {
        let maximum = SubscriptionLimits.maximumLeaseDuration
        func lease(_ seconds: Int32) throws -> Int32 {
            try parse([Self.ippget, IPPAttribute("notify-lease-duration", .integer(seconds))]).template.leaseDuration
        }
        #expect(try lease(maximum) == maximum)
        #expect(try lease(maximum + 1) == maximum)
        #expect(try lease(0) == maximum)
        #expect(try lease(30) == 30)
        #expect(throws: SubscriptionError.self) { try lease(-1) }
    }

    @Test func aJobSubscriptionNeedsALiveJobAndNoLease() throws {
        let job = IPPAttribute("notify-job-id", .integer(4))
        #expect(try parse([Self.ippget, job], scope: Self.existingJob).template.jobID == 4)
        #expect(throws: SubscriptionError.missingJobID) { try parse([Self.ippget], scope: Self.existingJob) }
        #expect(throws: SubscriptionError.jobNotFound(4)) {
            try parse([Self.ippget, job], scope: Self.existingJob, job: .missing)
        }
        #expect(throws: SubscriptionError.jobEnded(4)) {
            try parse([Self.ippget, job], scope: Self.existingJob, job: .ended)
        }
        let lease = IPPAttribute("notify-lease-duration", .integer(60))
        #expect(throws: SubscriptionError.self) { try parse([Self.ippget, job, lease], scope: Self.existingJob) }
        #expect(throws: SubscriptionError.self) { try parse([Self.ippget, job], scope: .printer) }
    }

    /// RFC 3995 section 11.1.1 puts notify-job-id among the operation attributes (ippsample's rfc3995-3996
    /// suite sends it there); CUPS clients put it in the subscription group, which wins.
    @Test func theJobMayBeNamedInTheOperationGroup() throws {
        let named = SubscriptionTemplate.Scope.existingJob(operationJobID: IPPAttribute("notify-job-id", .integer(7)))
        #expect(try parse([Self.ippget], scope: named).template.jobID == 7)
        let group = IPPAttribute("notify-job-id", .integer(4))
        #expect(try parse([Self.ippget, group], scope: named).template.jobID == 4)
        let zero = SubscriptionTemplate.Scope.existingJob(operationJobID: IPPAttribute("notify-job-id", .integer(0)))
        #expect(throws: SubscriptionError.self) { try parse([Self.ippget], scope: zero) }
    }

    /// A subscription group of Print-Job or Create-Job (RFC 3995 section 11.1.3) is for the job it creates: it
    /// names no job itself.
    @Test func aJobCreationSubscriptionIsForTheNewJob() throws {
        #expect(try parse([Self.ippget], scope: .newJob(9)).template.jobID == 9)
        let other = IPPAttribute("notify-job-id", .integer(4))
        #expect(throws: SubscriptionError.self) { try parse([Self.ippget, other], scope: .newJob(9)) }
    }

    @Test func aTimeIntervalIsKeptOnlyWhenAskedFor() throws {
        #expect(try parse([Self.ippget]).template.timeInterval == nil)
        let interval = IPPAttribute("notify-time-interval", .integer(5))
        #expect(try parse([Self.ippget, interval]).template.timeInterval == 5)
    }

    @Test func publishedEventsMapToTheirMostSpecificKeyword() {
        func keyword(_ kind: PrinterEvent.Kind, _ state: String) -> NotifyEvent {
            NotifyEvent(
                PrinterEvent(
                    kind: kind, sequence: 0, time: 0, printerName: "t", jobID: 1, state: state, reasons: [],
                    message: nil))
        }
        #expect(keyword(.jobCreated, "pending") == .jobCreated)
        #expect(keyword(.jobStateChanged, "processing") == .jobStateChanged)
        #expect(keyword(.jobStateChanged, "processing-stopped") == .jobStopped)
        for ended in ["completed", "canceled", "aborted"] { #expect(keyword(.jobStateChanged, ended) == .jobCompleted) }
        #expect(keyword(.jobProgress, "processing") == .jobProgress)
        #expect(keyword(.printerStateChanged, "idle") == .printerStateChanged)
        #expect(keyword(.printerStateChanged, "stopped") == .printerStopped)
    }
}
