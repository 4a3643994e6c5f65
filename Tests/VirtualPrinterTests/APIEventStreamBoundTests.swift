import Dispatch
import HTTPServer
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// The event stream's memory bound: a subscriber that never reads holds at most `EventHub.maximumQueuedEvents`
/// events, then is dropped (the JSON API's `/api/v1/events` answers it with an `overflow` event and ends).
@Suite struct APIEventStreamBoundTests {
    func event(_ number: Int) -> PrinterEvent {
        PrinterEvent(
            kind: .jobStateChanged, sequence: 0, time: 0, printerName: "p", jobID: number, state: "processing",
            reasons: [], message: nil)
    }

    @Test func aSubscriberAtTheBoundStillGetsEveryEvent() {
        let hub = EventHub()
        let subscription = hub.subscribe()
        for number in 1...EventHub.maximumQueuedEvents { hub.publish(event(number)) }
        let received = subscription.next(timeout: 0)
        #expect(received?.count == EventHub.maximumQueuedEvents)
        #expect(received?.last?.jobID == EventHub.maximumQueuedEvents)
        #expect(hub.subscriberCount == 1)
    }

    @Test func aSubscriberThatNeverReadsLosesItsQueueOnePastTheBound() {
        let hub = EventHub()
        let subscription = hub.subscribe()
        for number in 1...(EventHub.maximumQueuedEvents + 1) { hub.publish(event(number)) }
        #expect(subscription.next(timeout: 0) == nil)
        // Issue 21: the dropped subscriber then answered nil at once to every read, and GET /api/v1/wait, which
        // reads again after looking at the jobs, spun a core until its timeout. Now the next read waits, and
        // hears of what comes next.
        let start = DispatchTime.now()
        #expect(subscription.next(timeout: 0.2) == [])
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 150_000_000)
        hub.publish(event(7))
        #expect(subscription.next(timeout: 1)?.map(\.jobID) == [7])
        subscription.cancel()
        #expect(hub.subscriberCount == 0)
    }

    @Test func aSlowReaderDoesNotHoldBackOtherSubscribers() {
        let hub = EventHub()
        let slow = hub.subscribe()
        let fast = hub.subscribe()
        var delivered = 0
        for number in 1...(3 * EventHub.maximumQueuedEvents) {
            hub.publish(event(number))
            delivered += fast.next(timeout: 0)?.count ?? 0
        }
        #expect(delivered == 3 * EventHub.maximumQueuedEvents)
        #expect(slow.next(timeout: 0) == nil)
        // The slow one holds no events now; the event stream that reads it ends and cancels it.
        slow.cancel()
        #expect(hub.subscriberCount == 1)
    }
}

/// Issue 21: one client could hold all 64 event streams (and waits counted against them). Each address has its own
/// share now, and a slot comes back when its stream ends.
@Suite struct EventStreamSlotTests {
    @Test func oneClientCannotTakeEveryEventStream() throws {
        let harness = try PrinterHarness()
        func open(_ path: String, from address: String) -> Int {
            let request = HTTPRequest(
                method: "GET", target: path, path: path, host: "localhost", remoteAddress: address, localPort: 631)
            var body = HTTPRequestBody(bytes: [])
            return harness.service.handle(request, body: &body).status
        }
        for _ in 0..<PrinterService.maximumEventStreamsPerClient {
            #expect(open("/api/v1/events", from: "10.0.0.5") == 200)
        }
        #expect(open("/api/v1/events", from: "10.0.0.5") == 503)
        #expect(open("/api/v1/events", from: "10.0.0.6") == 200)
    }

    @Test func slotsAreBoundedInAllAndPerClientAndComeBack() {
        let slots = StreamSlots(total: 3, perClient: 2)
        #expect(slots.take(for: "a") && slots.take(for: "a") && !slots.take(for: "a"))
        #expect(slots.take(for: "b") && !slots.take(for: "c"))
        slots.release(for: "a")
        #expect(slots.take(for: "c") && slots.taken == 3)
        slots.release(for: "zzz")
        #expect(slots.taken == 3)
    }
}
