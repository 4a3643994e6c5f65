import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// The front panel's words for a fault's trigger and effect.
@Suite struct FaultWordsTests {
    @Test func triggers() {
        #expect(FaultWords.trigger(.now) == "at once")
        #expect(FaultWords.trigger(.afterJobs(1)) == "after 1 more job end")
        #expect(FaultWords.trigger(.afterJobs(3)) == "after 3 more jobs end")
        #expect(FaultWords.trigger(.atPage(2)) == "when a job prints side 2")
        #expect(FaultWords.trigger(.afterSeconds(1.5)) == "1.5 s after it was added")
        #expect(FaultWords.trigger(.requests(operation: "Print-Job", count: 1)) == "on the next Print-Job request")
        #expect(FaultWords.trigger(.requests(operation: "Print-Job", count: 2)) == "on the next 2 Print-Job requests")
    }

    @Test func effects() {
        #expect(
            FaultWords.effect(.addReasons(["media-jam-error", "door-open-error"]))
                == "adds media-jam-error, door-open-error")
        #expect(
            FaultWords.effect(.status(.serverErrorServiceUnavailable, message: "offline"))
                == "answers server-error-service-unavailable")
        #expect(FaultWords.effect(.setTray(source: nil, level: 0)) == "sets every tray to 0 sheets")
        #expect(FaultWords.effect(.setTray(source: "main", level: 10)) == "sets tray main to 10 sheets")
        #expect(FaultWords.effect(.setSupply(index: 1, level: 5)) == "sets supply 1 to 5 %")
        #expect(FaultWords.effect(.power(on: false)) == "switches the printer off")
        #expect(FaultWords.effect(.closeConnection(midResponse: true)) == "breaks off its answer")
    }

    @Test func numbers() {
        #expect(FaultWords.number(2) == "2")
        #expect(FaultWords.number(0.25) == "0.25")
        #expect(FaultWords.number(12.5) == "12.5")
        #expect(FaultWords.number(3600) == "3600")
        #expect(FaultWords.number(1234.567) == "1234.57")
        #expect(FaultWords.number(1e300).hasPrefix("1000"))  // no trap, no exponent
    }
}
