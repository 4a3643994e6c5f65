import IPP

/// A set of IPP operations as bits, for the checker's per-request questions ("is this a job operation?"): a
/// look-up without hashing. Operation codes above 127 (vendor extensions) are never members.
struct OperationSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ operations: [IPPOperation]) {
        for operation in operations where operation.rawValue < 128 {
            if operation.rawValue < 64 {
                low |= 1 << UInt64(operation.rawValue)
            } else {
                high |= 1 << UInt64(operation.rawValue - 64)
            }
        }
    }

    func contains(_ operation: IPPOperation) -> Bool {
        let code = operation.rawValue
        guard code < 128 else { return false }
        return code < 64 ? low & (1 << UInt64(code)) != 0 : high & (1 << UInt64(code - 64)) != 0
    }
}
