import COpenSSL

/// The server side of TLS: one OpenSSL `SSL_CTX` holding a certificate chain and its private key, shared by
/// every connection of a server.
///
/// TLS 1.2 and 1.3 are offered; renegotiation requested by a client is refused (RFC 5746's attack surface,
/// and a way to make the server work per connection), compression is off. TLS 1.2 sessions can be resumed
/// from the server's cache; TLS 1.3 session tickets are not sent (see the shim: CUPS's client trips on them).
public final class TLSContext: @unchecked Sendable {
    // @unchecked Sendable: `context` is configured in `init` and never changed afterwards; connection threads
    // only create sessions from it (`SSL_new`), which OpenSSL documents as safe from many threads at once (the
    // context's reference count and session cache take its own locks).

    /// The owned `SSL_CTX`.
    let context: OpaquePointer
    /// The PEM file of the certificate (and any chain after it).
    public let certificateFile: String
    /// The PEM file of the private key.
    public let keyFile: String

    /// Names this server's sessions for resumption (`SSL_CTX_set_session_id_context`).
    private static let sessionIDContext = Array("vprinter".utf8)

    /// Loads a certificate chain and its private key from PEM files; a file that does not load, or a key
    /// that does not belong to the certificate, is `tls` with OpenSSL's reason.
    public init(certificateFile: String, keyFile: String) throws(HTTPServerError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .tls(reason: "cannot create a TLS context: \(Self.lastError())")
        }
        do throws(HTTPServerError) {
            guard vp_ssl_ctx_configure(context) == 1 else {
                throw .tls(reason: "cannot configure TLS: \(Self.lastError())")
            }
            guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
                throw .tls(reason: "cannot load the certificate \(certificateFile): \(Self.lastError())")
            }
            guard SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1 else {
                throw .tls(reason: "cannot load the private key \(keyFile): \(Self.lastError())")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw .tls(reason: "the key \(keyFile) does not belong to the certificate \(certificateFile)")
            }
            _ = Self.sessionIDContext.withUnsafeBufferPointer {
                SSL_CTX_set_session_id_context(context, $0.baseAddress, UInt32($0.count))
            }
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        self.context = context
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// The highest TLS version offered, as DNS-SD's `TLS` key writes it: `1.3` or `1.2`.
    public var highestVersion: String {
        let version = vp_ssl_ctx_max_proto_version(context)
        return version == 0 || version >= TLS1_3_VERSION ? "1.3" : "1.2"
    }

    /// The oldest error on this thread's OpenSSL error queue as text (and the queue emptied), or a fallback.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no reason given" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
