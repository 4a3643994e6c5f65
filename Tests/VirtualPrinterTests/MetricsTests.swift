import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

@Suite struct MetricsTests {
    @Test func aHistogramCountsEachObservationInItsBucketAndSumsThem() {
        var histogram = Histogram(bounds: [0.1, 1])
        for value in [0.05, 0.1, 0.5, 3] { histogram.observe(value) }
        #expect(histogram.counts == [2, 1, 1])
        #expect(histogram.count == 4)
        let lines = histogram.lines(name: "h", labels: "a=\"b\"")
        #expect(lines.contains("h_bucket{a=\"b\",le=\"0.1\"} 2\n"))
        #expect(lines.contains("h_bucket{a=\"b\",le=\"1\"} 3\n"))
        #expect(lines.contains("h_bucket{a=\"b\",le=\"+Inf\"} 4\n"))
        #expect(lines.contains("h_count{a=\"b\"} 4\n"))
        #expect(lines.contains("h_sum{a=\"b\"} 3.65\n"))
    }

    @Test func labelValuesAreEscaped() {
        #expect(MetricsText.escape(#"a "b" \ c"#) == #"a \"b\" \\ c"#)
        #expect(MetricsText.escape("line\nbreak") == "line\\nbreak")
        #expect(MetricsText.escape("plain") == "plain")
    }

    @Test func requestsAreCountedByOperationAndStatusWithTheirLatency() {
        let metrics = ServiceMetrics()
        metrics.recordRequest(operation: .getPrinterAttributes, status: .successfulOK, seconds: 0.0002)
        metrics.recordRequest(operation: .getPrinterAttributes, status: .successfulOK, seconds: 0.003)
        metrics.recordRequest(operation: .printJob, status: .clientErrorNotFound, seconds: 0.001)
        let snapshot = metrics.snapshot
        #expect(snapshot.requests[.init(operation: 0x000B, status: 0)] == 2)
        #expect(snapshot.requests[.init(operation: 0x0002, status: 0x0406)] == 1)
        #expect(snapshot.latency[0x000B]?.count == 2)
        let text = MetricsText.render(printers: [], metrics: metrics, openConnections: 3)
        #expect(
            text.contains(#"vprinter_ipp_requests_total{operation="Get-Printer-Attributes",status="successful-ok"} 2"#))
        #expect(text.contains(#"vprinter_ipp_requests_total{operation="Print-Job",status="client-error-not-found"} 1"#))
        #expect(text.contains("vprinter_open_connections 3\n"))
        #expect(text.contains("# TYPE vprinter_ipp_request_duration_seconds histogram\n"))
    }

    @Test func unknownOperationsBeyondTheLimitShareOneSeries() {
        let metrics = ServiceMetrics()
        for code in 0..<(ServiceMetrics.maximumOperations + 10) {
            metrics.recordRequest(
                operation: IPPOperation(rawValue: UInt16(0x4100 + code)), status: .successfulOK, seconds: 0)
        }
        let snapshot = metrics.snapshot
        #expect(snapshot.latency.count == ServiceMetrics.maximumOperations + 1)
        #expect(snapshot.latency[0xFFFF]?.count == 10)
    }

    @Test func unknownOperationsFromManyThreadsStayWithinTheLimitTogether() {
        let metrics = ServiceMetrics()
        let threads = 8
        // Each thread its own codes, counted in the stripe of its thread: together past the limit.
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for code in 0..<ServiceMetrics.maximumOperations {
                metrics.recordRequest(
                    operation: IPPOperation(rawValue: UInt16(0x4000 + thread * 0x100 + code)), status: .successfulOK,
                    seconds: 0)
            }
        }
        let snapshot = metrics.snapshot
        #expect(snapshot.latency.count <= ServiceMetrics.maximumOperations + 1)
        #expect(snapshot.latency.values.reduce(0) { $0 + $1.count } == threads * ServiceMetrics.maximumOperations)
        #expect(snapshot.requests.values.reduce(0, +) == threads * ServiceMetrics.maximumOperations)
    }

    @Test func printerMetricsFollowTheJobsAndCounters() throws {
        let harness = try PrinterHarness()
        harness.printer.counters.bytesReceived.add(1234, ordering: .relaxed)
        let text = MetricsText.render(printers: [harness.printer], metrics: ServiceMetrics(), openConnections: 0)
        #expect(text.contains(#"vprinter_received_bytes_total{printer="t"} 1234"#))
        #expect(text.contains(#"vprinter_jobs{printer="t",state="completed"} 0"#))
        #expect(text.contains(#"vprinter_printer_powered_on{printer="t"} 1"#))
        #expect(text.contains("vprinter_render_seconds_count 0\n"))
    }
}
