/// One slice of a fleet that several processes serve together (a StatefulSet's pods, docs/kubernetes.md): each serves
/// the printers of one `--config` whose position in it, counted from 0, leaves `index` when divided by `count`, and
/// numbers its jobs so that no two slices hand out the same job-id (`index + 1`, then every `count` after it).
public struct FleetShard: Sendable, Hashable, CustomStringConvertible {
    /// This slice, from 0.
    public let index: Int
    /// How many slices the fleet has.
    public let count: Int

    /// The whole fleet in one process.
    public static let whole = FleetShard(validIndex: 0, count: 1)

    /// The most slices a fleet may be cut into.
    public static let maximumCount = 10_000
    /// The INDEX that stands for the number ending the machine's host name (`hostname/3`): a StatefulSet pod's
    /// host name is its name, which ends in its ordinal (`vprinter-fleet-2`).
    public static let hostNameIndex = "hostname"

    private init(validIndex: Int, count: Int) {
        self.index = validIndex
        self.count = count
    }

    /// `INDEX/COUNT` (`2/3`), where INDEX may end a name, as a StatefulSet's pod is named after its ordinal
    /// (`vprinter-2/3`: the pod's own name tells it its slice). Nil when it is neither, or INDEX is not below COUNT.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), count >= 1, count <= Self.maximumCount else { return nil }
        let digits = parts[0].reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9,
            digits.count == parts[0].count
                || (parts[0].count > digits.count + 1 && parts[0].dropLast(digits.count).hasSuffix("-")),
            let index = Int(String(digits.reversed())), index < count
        else { return nil }
        self.init(validIndex: index, count: count)
    }

    /// Whether the printer at `position` of the fleet's list (from 0) is this slice's.
    public func holds(position: Int) -> Bool {
        position % count == index
    }

    /// Whether `jobID` is one this slice hands out.
    public func owns(jobID: Int) -> Bool {
        jobID > 0 && (jobID - 1) % count == index
    }

    /// The first job-id of this slice above `id`.
    public func firstJobID(above id: Int) -> Int {
        let next = max(id, 0) + 1
        return next + (index - (next - 1) % count + count) % count
    }

    public var description: String { "\(index)/\(count)" }
}
