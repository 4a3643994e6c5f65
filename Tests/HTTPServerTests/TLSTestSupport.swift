import COpenSSL
import Foundation

@testable import HTTPServer

/// What the TLS tests share: a self-signed certificate made once per test process, a server context for it,
/// a client context that accepts it, and the bytes of a real ClientHello.
enum TLSTestSupport {
    /// A folder with a fresh certificate and key, made with the server's own generator.
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "vprinter-tls-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try? SelfSignedCertificate.ensure(
            certificateFile: folder + "/cert.pem", keyFile: folder + "/key.pem", hostNames: ["localhost"],
            addresses: ["127.0.0.1"])
        return folder
    }()

    /// The server context of the test certificate.
    static func serverContext() throws -> TLSContext {
        try TLSContext(certificateFile: folder + "/cert.pem", keyFile: folder + "/key.pem")
    }

    /// A client context that verifies nothing (the tests look at the server's behaviour, not at trust).
    nonisolated(unsafe) static let clientContext: OpaquePointer = {
        let context = SSL_CTX_new(TLS_client_method())!
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        return context
    }()

    /// The first flight of a TLS client (its ClientHello record), produced over memory BIOs.
    static let clientHello: [UInt8] = {
        let ssl = SSL_new(clientContext)!
        defer { SSL_free(ssl) }
        let input = BIO_new(BIO_s_mem())!
        let output = BIO_new(BIO_s_mem())!
        SSL_set_bio(ssl, input, output)
        _ = SSL_connect(ssl)
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        let count = BIO_read(output, &bytes, Int32(bytes.count))
        return Array(bytes.prefix(Int(max(0, count))))
    }()
}

/// Runs `body` with a started TLS server (plain HTTP too unless `requiresTLS`) on a free loopback port.
func withTLSServer(
    limits: HTTPServerLimits = .default, requiresTLS: Bool = false, handler: some HTTPHandler = echoHandler,
    _ body: (HTTPServer) throws -> Void
) throws {
    let tls = TLSConfiguration(context: try TLSTestSupport.serverContext(), requiresTLS: requiresTLS)
    let server = HTTPServer(
        configuration: HTTPServerConfiguration(addresses: ["127.0.0.1"], port: 0, limits: limits, tls: tls),
        handler: handler)
    try server.start()
    defer { server.stop() }
    try body(server)
}

/// Answers with whether the request came over TLS, in `X-Encrypted`.
let transportHandler = ClosureHandler { request, _ in
    HTTPResponse(status: 200, headers: ["X-Encrypted": request.isEncrypted ? "yes" : "no"], body: .bytes([]))
}
