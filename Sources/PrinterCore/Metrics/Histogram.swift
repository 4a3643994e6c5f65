/// A Prometheus histogram's counts: cumulative-free bucket counts (each observation lands in one bucket),
/// their sum and count. A value type, kept under its owner's lock.
struct Histogram: Sendable {
    /// Upper bounds in seconds, ascending; an implicit `+Inf` bucket follows.
    let bounds: [Double]
    /// `counts[i]` observations fell at or below `bounds[i]` and above the bound before; the last is `+Inf`.
    private(set) var counts: [Int]
    private(set) var sum: Double = 0
    private(set) var count = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    /// Records one observation.
    mutating func observe(_ value: Double) {
        var index = bounds.count
        for (i, bound) in bounds.enumerated() where value <= bound {
            index = i
            break
        }
        counts[index] += 1
        sum += value
        count += 1
    }

    /// The counts of this histogram and another of the same bounds together.
    func adding(_ other: Histogram) -> Histogram {
        var sum = self
        for index in sum.counts.indices where index < other.counts.count { sum.counts[index] += other.counts[index] }
        sum.sum += other.sum
        sum.count += other.count
        return sum
    }

    /// The exposition lines (`_bucket` with cumulative counts and `le`, `_sum`, `_count`) of this histogram
    /// under `name`, with `labels` (already formatted, `key="value"`, or empty) on every line.
    func lines(name: String, labels: String) -> String {
        var text = ""
        var cumulative = 0
        let prefix = labels.isEmpty ? "" : labels + ","
        for (i, bound) in bounds.enumerated() {
            cumulative += counts[i]
            text += "\(name)_bucket{\(prefix)le=\"\(MetricsText.number(bound))\"} \(cumulative)\n"
        }
        cumulative += counts[bounds.count]
        text += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(cumulative)\n"
        let braces = labels.isEmpty ? "" : "{\(labels)}"
        text += "\(name)_sum\(braces) \(MetricsText.number(sum))\n"
        text += "\(name)_count\(braces) \(count)\n"
        return text
    }
}
