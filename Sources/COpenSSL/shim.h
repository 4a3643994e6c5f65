#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <openssl/rand.h>

// OpenSSL spells these as macros or variadic functions, which Swift cannot call: one small wrapper each.

/// TLS 1.2 at least; a client's renegotiation request is refused; no compression (CRIME); a peer that closes
/// without close_notify simply ends the stream; partial writes; no session tickets (below).
static inline int vp_ssl_ctx_configure(SSL_CTX *context) {
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) return 0;
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE
        | SSL_OP_IGNORE_UNEXPECTED_EOF);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // No TLS 1.3 session tickets: they arrive after the client's handshake ended, and CUPS's GnuTLS client,
    // reading with a time-out (ipptool -T), takes the ticket record for a failed read of the response.
    SSL_CTX_set_num_tickets(context, 0);
    return 1;
}

/// The highest protocol version a context offers (TLS1_3_VERSION, TLS1_2_VERSION), 0 for the library's highest.
static inline long vp_ssl_ctx_max_proto_version(SSL_CTX *context) {
    return SSL_CTX_get_max_proto_version(context);
}

/// A new elliptic-curve key on the named curve ("P-256").
static inline EVP_PKEY *vp_ec_key_generate(const char *curve) {
    return EVP_EC_gen(curve);
}

/// The bytes a memory BIO holds.
static inline long vp_bio_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// Caps the protocol version of one session (tests: TLS 1.2, where renegotiation exists).
static inline int vp_ssl_set_max_proto_version(SSL *ssl, int version) {
    return SSL_set_max_proto_version(ssl, version);
}
