import Foundation
import IPP
import PrintModel
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// The subscription operations and Get-Notifications over IPP, through `PrinterService`.
@Suite(.timeLimit(.minutes(1))) struct SubscriptionOperationsTests {
    static let ippget = IPPAttribute("notify-pull-method", .keyword("ippget"))

    @Test func aPullSubscriptionIsCreatedWithItsLeaseAndCanBeRead() throws {
        let printer = try SubscriptionTestPrinter()
        let response = try printer.send(
            .createPrinterSubscriptions, [IPPAttribute("requesting-user-name", .name("alice"))],
            subscriptions: [
                [
                    Self.ippget,
                    IPPAttribute(
                        "notify-events", .keyword("printer-config-changed"), .keyword("printer-state-changed")),
                    IPPAttribute("notify-lease-duration", .integer(600)),
                    IPPAttribute("notify-user-data", .octetString(Array("tag".utf8))),
                ]
            ])
        #expect(response.status == .successfulOK)
        let group = try #require(response[group: .subscriptionAttributes])
        #expect(group.integerValue(of: "notify-lease-duration") == 600)
        let id = try #require(group.integerValue(of: "notify-subscription-id"))
        let attributes = try printer.send(
            .getSubscriptionAttributes, [IPPAttribute("notify-subscription-id", .integer(Int32(id)))])
        #expect(attributes.status == .successfulOK)
        let read = try #require(attributes[group: .subscriptionAttributes])
        #expect(read.stringValue(of: "notify-subscriber-user-name") == "alice")
        #expect(
            read["notify-events"]?.values == [.keyword("printer-config-changed"), .keyword("printer-state-changed")])
        #expect(read.stringValue(of: "notify-pull-method") == "ippget")
        #expect(read["notify-user-data"]?.value == .octetString(Array("tag".utf8)))
        #expect(read["notify-job-id"] == nil)
    }

    @Test func eachGroupIsAnsweredAndRefusedGroupsSayWhy() throws {
        let printer = try SubscriptionTestPrinter()
        let push = [IPPAttribute("notify-recipient-uri", .uri("mailto:someone@example.com"))]
        let mixed = try printer.send(.createPrinterSubscriptions, subscriptions: [[Self.ippget], push])
        #expect(mixed.status == Printer.ignoredSubscriptions)
        let groups = mixed.groups.filter { $0.tag == .subscriptionAttributes }
        #expect(groups.count == 2)
        #expect(groups[0].integerValue(of: "notify-subscription-id") != nil)
        #expect(
            groups[1]["notify-status-code"]?.value
                == .enumValue(Int32(IPPStatus.clientErrorURISchemeNotSupported.rawValue)))
        #expect(mixed[group: .unsupportedAttributes]?["notify-recipient-uri"] != nil)
        let refused = try printer.send(.createPrinterSubscriptions, subscriptions: [push])
        #expect(refused.status == Printer.ignoredAllSubscriptions)
        let none = try printer.send(.createPrinterSubscriptions)
        #expect(none.status == .clientErrorBadRequest)
    }

    @Test func getNotificationsReturnsAJobsEventsInOrder() throws {
        let printer = try SubscriptionTestPrinter()
        let id = try printer.subscribe(
            ["job-created", "job-completed"], extra: [IPPAttribute("notify-attributes", .keyword("job-name"))])
        let job = try printer.createJob()
        try printer.cancelJob(job)
        let response = try printer.notifications([id])
        #expect(response.status == .successfulOK)
        let events = response.notificationGroups
        #expect(events.map { $0.integerValue(of: "notify-sequence-number") } == [1, 2])
        #expect(events.map { $0.stringValue(of: "notify-subscribed-event") } == ["job-created", "job-completed"])
        #expect(
            events.allSatisfy {
                $0.integerValue(of: "notify-job-id") == job && $0.integerValue(of: "notify-subscription-id") == id
            })
        #expect(events.last?["job-state"]?.value == .enumValue(JobState.canceled.rawValue))
        #expect(events.last?["printer-state"]?.value == .enumValue(3))
        #expect(events.last?["printer-is-accepting-jobs"]?.value == .boolean(true))
        #expect(events.last?.stringValue(of: "notify-printer-uri") == SubscriptionTestPrinter.uri)
        #expect(events.last?["job-name"] != nil)
        for name in [
            "notify-text", "notify-charset", "notify-natural-language", "printer-up-time", "printer-state-reasons",
            "job-state-reasons", "job-impressions-completed",
        ] {
            #expect(events.last?[name] != nil, "\(name) is missing")
        }
        let later = try printer.notifications([id], from: [2])
        #expect(later.notificationGroups.map { $0.integerValue(of: "notify-sequence-number") } == [2])
    }

    @Test func aJobSubscriptionReportsEventsCompleteOnceItsJobEnded() throws {
        let printer = try SubscriptionTestPrinter()
        let job = try printer.createJob()
        let created = try printer.send(
            .createJobSubscriptions, [IPPAttribute("requesting-user-name", .name("alice"))],
            subscriptions: [[Self.ippget, IPPAttribute("notify-job-id", .integer(Int32(job)))]])
        #expect(created.status == .successfulOK)
        #expect(created[group: .subscriptionAttributes]?["notify-lease-duration"] == nil)
        let id = try #require(created.subscriptionIDs.first ?? nil)
        #expect(try printer.notifications([id]).status == .successfulOK)
        try printer.cancelJob(job)
        let response = try printer.notifications([id])
        #expect(response.status == .successfulOKEventsComplete)
        #expect(response.notificationGroups.map { $0.stringValue(of: "notify-subscribed-event") } == ["job-completed"])
        let again = try printer.send(
            .createJobSubscriptions,
            subscriptions: [[Self.ippget, IPPAttribute("notify-job-id", .integer(Int32(job)))]])
        #expect(again.status == Printer.ignoredAllSubscriptions)
        #expect(
            again[group: .subscriptionAttributes]?["notify-status-code"]?.value
                == .enumValue(Int32(IPPStatus.clientErrorNotPossible.rawValue)))
    }

    /// RFC 3995 section 11.1.3: a Create-Job (or Print-Job) with a subscription group subscribes to the job it
    /// creates, whose job-created event the subscription hears; a refused group still creates the job.
    @Test func aJobCreationRequestSubscribesToItsJob() throws {
        let printer = try SubscriptionTestPrinter()
        let response = try printer.send(
            .createJob, [IPPAttribute("requesting-user-name", .name("alice"))],
            subscriptions: [
                [Self.ippget, IPPAttribute("notify-events", .keyword("job-created"), .keyword("job-completed"))]
            ])
        #expect(response.status == .successfulOK)
        let job = try #require(response.attribute("job-id", in: .jobAttributes)?.value?.integerValue)
        let id = try #require(response.subscriptionIDs.first ?? nil)
        #expect(response.groups.last?.tag == .subscriptionAttributes)
        let read = try printer.send(
            .getSubscriptionAttributes, [IPPAttribute("notify-subscription-id", .integer(Int32(id)))])
        let group = try #require(read[group: .subscriptionAttributes])
        #expect(group.integerValue(of: "notify-job-id") == Int(job))
        // A per-job subscription has no lease, and no notify-time-interval unless one was asked for.
        for absent in [
            "notify-lease-duration", "notify-lease-expiration-time", "notify-printer-up-time", "notify-time-interval",
        ] {
            #expect(group[absent] == nil, "\(absent) is present")
        }
        try printer.cancelJob(Int(job))
        let events = try printer.notifications([id]).notificationGroups
        #expect(events.map { $0.stringValue(of: "notify-subscribed-event") } == ["job-created", "job-completed"])

        let refused = try printer.send(
            .createJob, [IPPAttribute("requesting-user-name", .name("alice"))],
            subscriptions: [[Self.ippget, IPPAttribute("notify-job-id", .integer(Int32(job)))]])
        #expect(refused.status == Printer.ignoredSubscriptions)
        #expect(refused.attribute("job-id", in: .jobAttributes) != nil)
        #expect(refused.subscriptionIDs == [nil])
    }

    /// RFC 3995 section 11.1.1: Create-Job-Subscriptions names its job by an operation attribute.
    @Test func createJobSubscriptionsReadsTheJobFromTheOperationGroup() throws {
        let printer = try SubscriptionTestPrinter()
        let job = try printer.createJob()
        let created = try printer.send(
            .createJobSubscriptions,
            [
                IPPAttribute("notify-job-id", .integer(Int32(job))),
                IPPAttribute("requesting-user-name", .name("alice")),
            ],
            subscriptions: [[Self.ippget, IPPAttribute("notify-time-interval", .integer(5))]])
        #expect(created.status == .successfulOK)
        let id = try #require(created.subscriptionIDs.first ?? nil)
        let read = try printer.send(
            .getSubscriptionAttributes, [IPPAttribute("notify-subscription-id", .integer(Int32(id)))])
        #expect(read[group: .subscriptionAttributes]?.integerValue(of: "notify-job-id") == job)
        #expect(read[group: .subscriptionAttributes]?.integerValue(of: "notify-time-interval") == 5)
    }

    /// RFC 3995 section 5.3.3.4.3: printer-is-accepting-jobs changing is a printer-state-changed event.
    @Test func disablingAndEnablingThePrinterAreStateChanges() throws {
        let printer = try SubscriptionTestPrinter()
        let id = try printer.subscribe(["printer-state-changed"])
        #expect(try printer.send(.disablePrinter).status == .successfulOK)
        #expect(try printer.send(.enablePrinter).status == .successfulOK)
        let events = try printer.notifications([id]).notificationGroups
        #expect(events.map { $0["printer-is-accepting-jobs"]?.value } == [.boolean(false), .boolean(true)])
    }

    @Test func onlyTheOwnerMayCancelOrReadTheEvents() throws {
        let printer = try SubscriptionTestPrinter()
        let id = try printer.subscribe(["job-created"], user: "alice")
        let target = IPPAttribute("notify-subscription-id", .integer(Int32(id)))
        #expect(try printer.notifications([id], user: "bob").status == .clientErrorNotAuthorized)
        let byBob = try printer.send(.cancelSubscription, [target, IPPAttribute("requesting-user-name", .name("bob"))])
        #expect(byBob.status == .clientErrorNotAuthorized)
        let byAlice = try printer.send(
            .cancelSubscription, [target, IPPAttribute("requesting-user-name", .name("alice"))])
        #expect(byAlice.status == .successfulOK)
        #expect(try printer.send(.getSubscriptionAttributes, [target]).status == .clientErrorNotFound)
        #expect(try printer.notifications([id]).status == .clientErrorNotFound)
    }

    @Test func renewGivesANewLeaseToPrinterSubscriptionsOnly() throws {
        let printer = try SubscriptionTestPrinter()
        let id = try printer.subscribe(["job-created"])
        let user = IPPAttribute("requesting-user-name", .name("alice"))
        let renewed = try printer.send(
            .renewSubscription,
            [
                user, IPPAttribute("notify-subscription-id", .integer(Int32(id))),
                IPPAttribute("notify-lease-duration", .integer(120)),
            ])
        #expect(renewed.status == .successfulOK)
        let read = try printer.send(
            .getSubscriptionAttributes, [IPPAttribute("notify-subscription-id", .integer(Int32(id)))])
        #expect(read[group: .subscriptionAttributes]?.integerValue(of: "notify-lease-duration") == 120)
        let job = try printer.createJob()
        let jobSubscription = try printer.send(
            .createJobSubscriptions, [user],
            subscriptions: [[Self.ippget, IPPAttribute("notify-job-id", .integer(Int32(job)))]])
        let jobID = try #require(jobSubscription.subscriptionIDs.first ?? nil)
        let refused = try printer.send(
            .renewSubscription, [user, IPPAttribute("notify-subscription-id", .integer(Int32(jobID)))])
        #expect(refused.status == .clientErrorNotPossible)
    }

    @Test func getSubscriptionsListsPrinterOrJobSubscriptionsWithMineAndLimit() throws {
        let printer = try SubscriptionTestPrinter()
        let first = try printer.subscribe(["job-created"], user: "alice")
        let second = try printer.subscribe(["job-created"], user: "bob")
        let job = try printer.createJob()
        _ = try printer.send(
            .createJobSubscriptions,
            subscriptions: [[Self.ippget, IPPAttribute("notify-job-id", .integer(Int32(job)))]])
        func list(_ attributes: [IPPAttribute]) throws -> [Int?] {
            let response = try printer.send(.getSubscriptions, attributes)
            #expect(response.status == .successfulOK)
            return response.subscriptionIDs
        }
        #expect(try list([]) == [first, second])
        #expect(try list([IPPAttribute("limit", .integer(1))]) == [first])
        let bob = IPPAttribute("requesting-user-name", .name("bob"))
        #expect(try list([bob, IPPAttribute("my-subscriptions", .boolean(true))]) == [second])
        #expect(try list([IPPAttribute("notify-job-id", .integer(Int32(job)))]) == [3])
        #expect(
            try printer.send(.getSubscriptions, [IPPAttribute("notify-job-id", .integer(999))]).status
                == .clientErrorNotFound)
    }

    @Test func notifyWaitAnswersWhenAnEventArrives() throws {
        let printer = try SubscriptionTestPrinter()
        let id = try printer.subscribe(["job-created"])
        let store = printer.printer.subscriptions
        DispatchQueue.global().async {
            // Bounded (10 s): if the wait below never registers, this gives up rather than spin for ever.
            var tries = 0
            while store.waiterCount == 0 && tries < 10_000 {
                usleep(1000)
                tries += 1
            }
            _ = try? printer.createJob()
        }
        let response = try printer.notifications([id], wait: true)
        #expect(response.status == .successfulOK)
        #expect(response.notificationGroups.map { $0.stringValue(of: "notify-subscribed-event") } == ["job-created"])
    }

    @Test func getNotificationsAsksForTheNextPollUnlessEventsAreComplete() throws {
        let printer = try SubscriptionTestPrinter().printer
        let polling = Dictionary(
            uniqueKeysWithValues: printer.notificationOperationAttributes(eventsComplete: false).map {
                ($0.name, $0.value)
            })
        #expect(polling["notify-get-interval"] == .integer(SubscriptionLimits.getInterval))
        #expect(polling["printer-up-time"]??.integerValue ?? 0 > 0)
        let complete = printer.notificationOperationAttributes(eventsComplete: true).map(\.name)
        #expect(complete == ["printer-up-time"])
    }

    @Test func theSubscriptionAttributesOfThePrinterDescribeIppget() {
        let attributes = Dictionary(uniqueKeysWithValues: Printer.subscriptionAttributes().map { ($0.name, $0.values) })
        #expect(attributes["notify-pull-method-supported"] == [.keyword("ippget")])
        #expect(attributes["ippget-event-life"] == [.integer(SubscriptionLimits.eventLife)])
        #expect(attributes["notify-max-events-supported"] == [.integer(Int32(SubscriptionLimits.maximumEventKeywords))])
        #expect(attributes["notify-events-supported"]?.contains(.keyword("none")) == true)
        #expect(
            attributes["notify-lease-duration-supported"] == [
                .rangeOfInteger(0...SubscriptionLimits.maximumLeaseDuration)
            ])
        #expect(attributes["notify-schemes-supported"] == nil)
    }
}
