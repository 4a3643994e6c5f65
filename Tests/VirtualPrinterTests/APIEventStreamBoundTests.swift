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

    @Test func aSubscriberThatNeverReadsIsDroppedOnePastTheBound() {
        let hub = EventHub()
        let subscription = hub.subscribe()
        for number in 1...(EventHub.maximumQueuedEvents + 1) { hub.publish(event(number)) }
        #expect(subscription.next(timeout: 0) == nil)
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
        #expect(hub.subscriberCount == 1)
    }
}
