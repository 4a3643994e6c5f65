/// What a client speaks on a port that serves TLS and plain HTTP alike, told apart by its first bytes.
///
/// A TLS connection opens with a handshake record: content type 22, then the major protocol version 3
/// (RFC 8446 section 5.1, RFC 5246 section 6.2.1). An HTTP request opens with a method token, which never
/// holds byte 22. Anything else is left to the HTTP parser, which closes what is not HTTP.
enum TransportDetection {
    /// The transports the first bytes can announce.
    enum Transport: Equatable, Sendable {
        /// A TLS ClientHello: run the handshake.
        case tls
        /// Plain HTTP (or bytes the HTTP parser will refuse).
        case http
    }

    /// The TLS record content type of handshake messages.
    static let handshakeRecordType: UInt8 = 0x16
    /// The major protocol version of every TLS and SSL 3 record header.
    static let recordMajorVersion: UInt8 = 0x03
    /// The most bytes worth looking at: the record type and the major version.
    static let prefixLength = 2

    /// Classifies the first bytes received (at least one; more than `prefixLength` are ignored); nil for none.
    static func classify(_ prefix: some Collection<UInt8>) -> Transport? {
        var bytes = prefix.makeIterator()
        guard let first = bytes.next() else { return nil }
        guard first == handshakeRecordType else { return .http }
        guard let second = bytes.next() else { return .tls }
        return second == recordMajorVersion ? .tls : .http
    }
}
