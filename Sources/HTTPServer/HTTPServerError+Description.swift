import Glibc

extension HTTPServerError: CustomStringConvertible {
    /// One line a person can act on, with the system's words for an errno.
    public var description: String {
        switch self {
        case .addressInUse(let port): "port \(port) is already in use"
        case .invalidAddress(let text): "\(text) is not a numeric IPv4 or IPv6 address"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .connectionClosed: "the client closed the connection"
        case .timedOut: "the client was too slow"
        case .stopped: "the server is stopping"
        case .notHTTP: "the client did not speak HTTP"
        case .malformedRequest(let reason): "malformed request: \(reason)"
        case .headTooLarge: "request head too large"
        case .tooManyHeaders: "too many header fields"
        case .unsupportedVersion: "unsupported HTTP version"
        case .unsupportedTransferCoding(let coding): "unsupported transfer coding \(coding)"
        case .unsupportedExpectation(let value): "unsupported expectation \(value)"
        case .badChunk: "malformed chunked body"
        case .bodyTooLarge: "request body too large"
        case .tls(let reason): "TLS: \(reason)"
        case .destinationRefused(let refusal): "\(refusal)"
        }
    }
}
