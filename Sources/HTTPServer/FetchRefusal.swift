/// Why the fetch policy (`FetchPolicy`) refused a destination: the host as the URL named it, the address it
/// resolved to, the port and the rule. Nothing was sent to it.
public struct FetchRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        case ownListener
        case scope(AddressScope)
        /// A `--fetch-deny` rule, as given.
        case denied(rule: String)
        case loopbackWhileListeningBeyondIt
    }

    public let host: String
    public let address: String
    public let port: UInt16
    public let reason: Reason

    public var description: String {
        let target = "\(host) (\(address) port \(port))"
        switch reason {
        case .ownListener:
            return "\(target) is one of this printer's own listeners, which it never fetches from"
        case .scope(let scope):
            return "\(target) is a \(scope.rawValue) address, which the printer never fetches from"
        case .denied(let rule):
            return "\(target) is refused by --fetch-deny \(rule); allow it with --fetch-allow"
        case .loopbackWhileListeningBeyondIt:
            return
                "\(target) is a loopback address, fetched only while the printer listens on loopback alone; "
                + "allow it with --fetch-allow \(address.contains(":") ? "[\(address)]" : address):\(port)"
        }
    }
}
