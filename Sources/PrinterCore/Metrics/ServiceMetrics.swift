import IPP
import Synchronization

/// The process-wide measurements `GET /metrics` exposes besides each printer's ``PrinterCounters``: IPP
/// requests by operation and status with their latency, and render times.
///
/// Recording an IPP request takes one lock and updates fixed-size values in place (no allocation once an
/// operation/status pair was seen), so that it costs Get-Printer-Attributes next to nothing. The requests are
/// counted in stripes (`ThreadStriped`): eight connections answering at once would otherwise queue for one lock.
public final class ServiceMetrics: Sendable {
    /// Latency buckets of IPP requests, in seconds (from reading the request to the answer, before sending).
    static let requestBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 2.5]
    /// Render-time buckets of jobs, in seconds.
    static let renderBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
    /// The most distinct operation codes tracked; requests of further unknown codes count under 0xFFFF.
    static let maximumOperations = 128

    struct RequestKey: Hashable, Sendable {
        var operation: UInt16
        var status: UInt16
    }

    /// The requests counted in one stripe.
    private struct Requests: Sendable {
        var counts: [RequestKey: Int] = [:]
        var latency: [UInt16: Histogram] = [:]
    }

    private let requests = ThreadStriped { Requests() }
    private let render = Mutex(Histogram(bounds: ServiceMetrics.renderBuckets))

    public init() {}

    /// Counts one answered IPP request and its latency in seconds.
    package func recordRequest(operation: IPPOperation, status: IPPStatus, seconds: Double) {
        // Unknown codes beyond the limit count under 0xFFFF; each stripe holds at most the limit.
        requests.withLock { requests in
            var code = operation.rawValue
            if requests.latency[code] == nil && requests.latency.count >= Self.maximumOperations { code = 0xFFFF }
            requests.counts[RequestKey(operation: code, status: status.rawValue), default: 0] += 1
            requests.latency[code, default: Histogram(bounds: Self.requestBuckets)].observe(seconds)
        }
    }

    /// Records how long one job took to render.
    func recordRender(seconds: Double) {
        render.withLock { $0.observe(seconds) }
    }

    /// A copy of the current values.
    var snapshot: (requests: [RequestKey: Int], latency: [UInt16: Histogram], render: Histogram) {
        var counts: [RequestKey: Int] = [:]
        var latency: [UInt16: Histogram] = [:]
        requests.withEachLock { requests in
            counts.merge(requests.counts, uniquingKeysWith: +)
            latency.merge(requests.latency) { $0.adding($1) }
        }
        // Stripes may each have seen other unknown codes: past the limit in all, they count under 0xFFFF.
        let kept = Set(latency.keys.filter { $0 != 0xFFFF }.sorted().prefix(Self.maximumOperations))
        for (code, histogram) in latency where code != 0xFFFF && !kept.contains(code) {
            latency[0xFFFF] = latency[0xFFFF]?.adding(histogram) ?? histogram
            latency[code] = nil
        }
        for (key, count) in counts where key.operation != 0xFFFF && !kept.contains(key.operation) {
            counts[RequestKey(operation: 0xFFFF, status: key.status), default: 0] += count
            counts[key] = nil
        }
        return (counts, latency, render.withLock { $0 })
    }
}
