import IPP
import Synchronization

/// The process-wide measurements `GET /metrics` exposes besides each printer's ``PrinterCounters``: IPP
/// requests by operation and status with their latency, and render times.
///
/// Recording an IPP request takes one lock and updates fixed-size values in place (no allocation once an
/// operation/status pair was seen), so that it costs Get-Printer-Attributes next to nothing.
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

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [UInt16: Histogram] = [:]
        var render = Histogram(bounds: ServiceMetrics.renderBuckets)
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts one answered IPP request and its latency in seconds.
    package func recordRequest(operation: IPPOperation, status: IPPStatus, seconds: Double) {
        state.withLock { state in
            var code = operation.rawValue
            if state.latency[code] == nil && state.latency.count >= Self.maximumOperations { code = 0xFFFF }
            state.requests[RequestKey(operation: code, status: status.rawValue), default: 0] += 1
            state.latency[code, default: Histogram(bounds: Self.requestBuckets)].observe(seconds)
        }
    }

    /// Records how long one job took to render.
    func recordRender(seconds: Double) {
        state.withLock { $0.render.observe(seconds) }
    }

    /// A copy of the current values.
    var snapshot: (requests: [RequestKey: Int], latency: [UInt16: Histogram], render: Histogram) {
        state.withLock { ($0.requests, $0.latency, $0.render) }
    }
}
