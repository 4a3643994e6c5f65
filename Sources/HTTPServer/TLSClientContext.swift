import COpenSSL

/// The client side of TLS for `HTTPClient` (`vprinter wait --url ipps://...`): TLS 1.2 or later, and no check
/// of the certificate, since the printers it talks to are test printers with self-signed certificates.
final class TLSClientContext: @unchecked Sendable {
    // @unchecked Sendable: the SSL_CTX is configured in init and only read afterwards (SSL_new), which OpenSSL
    // documents as safe from many threads.

    /// The owned `SSL_CTX`.
    let context: OpaquePointer

    /// The one client context of the process, made on first use (nil when OpenSSL cannot make one).
    static let shared = TLSClientContext()

    private init?() {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return nil }
        guard vp_ssl_ctx_configure(context) == 1 else {
            SSL_CTX_free(context)
            return nil
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        self.context = context
    }

    deinit {
        SSL_CTX_free(context)
    }
}
