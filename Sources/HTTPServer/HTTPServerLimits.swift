/// The limits that keep the server alive under bad or hostile clients.
///
/// Each limit answers with its own status and closes only the offending connection.
public struct HTTPServerLimits: Sendable {
    /// Largest request head (request line and header fields) in bytes; beyond it the client gets 431 and
    /// the connection is closed (RFC 6585 section 5).
    public var maximumHeadBytes: Int
    /// Largest number of header fields in one request; beyond it the client gets 431.
    public var maximumHeaderCount: Int
    /// Largest number of connections served at once; a connection beyond it gets 503 and is closed.
    public var maximumConnections: Int
    /// Largest number of connections served at once from one client address (an IPv6 client's /64 counts as
    /// one); a connection beyond it gets 503 and is closed, so one client cannot take every connection.
    public var maximumConnectionsPerAddress: Int
    /// Seconds a keep-alive connection may sit idle between requests before the server closes it.
    public var idleTimeout: Double
    /// Seconds the whole request head may take to arrive, and each body read or send may take; a slower
    /// client gets 408 (when the head is late) and the connection is closed.
    public var slowClientTimeout: Double
    /// Largest request body in bytes; a larger Content-Length gets 413 before the handler runs, and a
    /// chunked body that grows past it fails the read with `bodyTooLarge`.
    public var maximumBodyBytes: Int
    /// Most bytes of a body the handler left unread that the server reads and discards to keep the
    /// connection alive; a longer remainder closes the connection instead.
    public var maximumDrainBytes: Int

    /// The longest a connection answered with silence (`HTTPResponse.Abort.silence`) stays open: a client
    /// that never gives up still has its connection, and its thread, back after five minutes.
    public static let maximumSilence: Duration = .seconds(300)
    /// How often a silent connection asks whether its silence has ended (`HTTPResponse.silenceEnds`).
    static let silenceCheckInterval: Duration = .seconds(1)

    /// The defaults: 16 KiB heads, 100 header fields, 2048 connections of which 1024 from one address, 60 s
    /// idle, 30 s slow client, bodies up to 1 GiB, up to 1 MiB drained.
    public static let `default` = HTTPServerLimits(
        maximumHeadBytes: 16 * 1024,
        maximumHeaderCount: 100,
        maximumConnections: 2048,
        maximumConnectionsPerAddress: 1024,
        idleTimeout: 60,
        slowClientTimeout: 30,
        maximumBodyBytes: 1 << 30,
        maximumDrainBytes: 1 << 20
    )

    /// Creates limits; every argument defaults to the value of `HTTPServerLimits.default`.
    public init(
        maximumHeadBytes: Int = 16 * 1024,
        maximumHeaderCount: Int = 100,
        maximumConnections: Int = 2048,
        maximumConnectionsPerAddress: Int = 1024,
        idleTimeout: Double = 60,
        slowClientTimeout: Double = 30,
        maximumBodyBytes: Int = 1 << 30,
        maximumDrainBytes: Int = 1 << 20
    ) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.slowClientTimeout = slowClientTimeout
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumDrainBytes = maximumDrainBytes
    }
}
