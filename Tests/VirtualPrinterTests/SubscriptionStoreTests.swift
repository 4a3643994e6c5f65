import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// The subscription store alone: sequence numbers, which events reach which subscription, expiry and bounds.
@Suite(.timeLimit(.minutes(1))) struct SubscriptionStoreTests {
    static let now = 1_000_000.0

    static func event(
        _ kind: PrinterEvent.Kind, job: Int? = 1, state: String = "pending", time: Double = now
    ) -> PrinterEvent {
        PrinterEvent(
            kind: kind, sequence: 0, time: time, printerName: "t", jobID: job, state: state,
            reasons: ["none"], message: nil)
    }

    static func template(_ events: [NotifyEvent], job: Int? = nil, lease: Int32 = 60) -> SubscriptionTemplate {
        var template = SubscriptionTemplate()
        template.events = events
        template.jobID = job
        template.leaseDuration = lease
        return template
    }

    func notifications(_ store: SubscriptionStore, _ id: Int, from: Int = 1, now: Double = now) throws
        -> [EventNotification]
    {
        try #require(try store.notifications([(id, from)], now: now).first).notifications
    }

    @Test func sequenceNumbersStartAtOneForEachSubscription() throws {
        let store = SubscriptionStore()
        let first = try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now)
        store.record(Self.event(.jobCreated, job: 1))
        let second = try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now)
        store.record(Self.event(.jobCreated, job: 2))
        #expect(try notifications(store, first.id).map(\.sequence) == [1, 2])
        #expect(try notifications(store, second.id).map(\.sequence) == [1])
        #expect(try notifications(store, first.id, from: 2).map { $0.event.jobID } == [2])
    }

    @Test func aBroaderEventReceivesItsKindsAsSubscribed() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobStateChanged]), owner: "a", now: Self.now).id
        store.record(Self.event(.jobCreated))
        store.record(Self.event(.jobProgress, state: "processing"))
        store.record(Self.event(.jobStateChanged, state: "completed"))
        let kept = try notifications(store, id)
        #expect(kept.map(\.occurred) == [.jobCreated, .jobCompleted])
        #expect(kept.map(\.subscribed) == [.jobStateChanged, .jobStateChanged])
    }

    @Test func aJobSubscriptionReceivesOnlyItsJobAndEndsWithIt() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCompleted], job: 7), owner: "a", now: Self.now).id
        store.record(Self.event(.jobStateChanged, job: 8, state: "completed"))
        #expect(try notifications(store, id).isEmpty)
        store.record(Self.event(.jobStateChanged, job: 7, state: "canceled"))
        #expect(try notifications(store, id).map { $0.event.jobID } == [7])
        #expect(store.subscription(id, now: Self.now)?.jobEnded == Self.now)
        let gone = Self.now + Double(SubscriptionLimits.eventLife)
        #expect(store.subscription(id, now: gone - 1) != nil)
        #expect(store.subscription(id, now: gone) == nil)
    }

    @Test func printerEventsCarryThePrinterStateToLaterJobEvents() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.printerStateChanged, .jobCreated]), owner: "a", now: Self.now).id
        var stopped = Self.event(.printerStateChanged, job: nil, state: "stopped")
        stopped.reasons = ["media-jam"]
        store.record(stopped)
        store.record(Self.event(.jobCreated))
        let kept = try notifications(store, id)
        #expect(kept.map(\.subscribed) == [.printerStateChanged, .jobCreated])
        #expect(kept.map(\.occurred) == [.printerStopped, .jobCreated])
        #expect(kept.last?.printer == PrinterSnapshot(state: "stopped", reasons: ["media-jam"]))
    }

    @Test func eventsOlderThanTheEventLifeAreDropped() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCreated], lease: 3600), owner: "a", now: Self.now).id
        store.record(Self.event(.jobCreated, job: 1, time: Self.now))
        store.record(Self.event(.jobCreated, job: 2, time: Self.now + 10))
        let life = Double(SubscriptionLimits.eventLife)
        #expect(try notifications(store, id, now: Self.now + life - 1).count == 2)
        #expect(try notifications(store, id, now: Self.now + life + 1).map(\.sequence) == [2])
    }

    @Test func aSubscriptionKeepsOnlyTheNewestEventsPastTheBound() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now).id
        let total = SubscriptionLimits.maximumEventsPerSubscription + 5
        for job in 1...total { store.record(Self.event(.jobCreated, job: job)) }
        let kept = try notifications(store, id)
        #expect(kept.count == SubscriptionLimits.maximumEventsPerSubscription)
        #expect(kept.first?.sequence == 6)
        #expect(kept.last?.sequence == total)
    }

    @Test func thePrinterRefusesASubscriptionPastTheMaximum() throws {
        let store = SubscriptionStore()
        for _ in 0..<SubscriptionLimits.maximumSubscriptions {
            _ = try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now)
        }
        #expect(throws: SubscriptionError.tooManySubscriptions) {
            try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now)
        }
        store.cancel(1)
        #expect(try store.create(Self.template([.jobCreated]), owner: "a", now: Self.now).id == 101)
    }

    @Test func aPrinterSubscriptionEndsAtItsLease() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCreated], lease: 60), owner: "a", now: Self.now).id
        #expect(store.subscription(id, now: Self.now + 59) != nil)
        _ = try store.renew(id, duration: 120, now: Self.now + 59)
        #expect(store.subscription(id, now: Self.now + 178) != nil)
        #expect(store.subscription(id, now: Self.now + 179) == nil)
        #expect(throws: SubscriptionError.subscriptionNotFound(id)) {
            try store.notifications([(id, 1)], now: Self.now + 179)
        }
    }

    @Test func aJobSubscriptionCannotBeRenewed() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCompleted], job: 3), owner: "a", now: Self.now).id
        #expect(throws: SubscriptionError.notRenewable(id)) { try store.renew(id, duration: 60, now: Self.now) }
    }

    @Test func aWaitingRequestWakesForAnEventFromAnotherThread() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCreated], lease: 3600), owner: "a", now: WallClock.now()).id
        DispatchQueue.global().async {
            // Bounded (10 s): if the wait below never registers, this gives up rather than spin for ever.
            var tries = 0
            while store.waiterCount == 0 && tries < 10_000 {
                usleep(1000)
                tries += 1
            }
            store.record(Self.event(.jobCreated, job: 5, time: WallClock.now()))
        }
        let deliveries = try store.waitForNotifications([(id, 1)], timeout: SubscriptionLimits.maximumWait)
        #expect(deliveries.first?.notifications.map { $0.event.jobID } == [5])
        #expect(store.waiterCount == 0)
    }

    @Test func aWaitWithoutEventsEndsEmpty() throws {
        let store = SubscriptionStore()
        let id = try store.create(Self.template([.jobCreated], lease: 3600), owner: "a", now: WallClock.now()).id
        let deliveries = try store.waitForNotifications([(id, 1)], timeout: 0.01)
        #expect(deliveries.first?.notifications.isEmpty == true)
    }

    @Test func waitsAreBoundedByTheMaximum() {
        #expect(SubscriptionStore.boundedWait(SubscriptionLimits.maximumWait + 1) == SubscriptionLimits.maximumWait)
        #expect(SubscriptionStore.boundedWait(SubscriptionLimits.maximumWait) == SubscriptionLimits.maximumWait)
        #expect(SubscriptionStore.boundedWait(1) == 1)
        #expect(SubscriptionStore.boundedWait(-5) == 0)
    }
}
