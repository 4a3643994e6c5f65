import COpenSSL
import Glibc

/// The certificate `--tls` makes for itself: self-signed, an elliptic-curve key, valid for the host names and
/// addresses the printer answers to, kept on disk and reused while it still fits.
public enum SelfSignedCertificate {
    /// How long a new certificate is valid, in days (ten years, as CUPS and PAPPL make theirs).
    public static let validityDays = 3650
    /// A certificate that expires sooner than this many days is replaced.
    public static let renewalMarginDays = 30
    /// The curve of the key: P-256 signs a handshake in a fraction of the time of RSA 2048, and every IPP
    /// client of the last decade (CUPS, iOS, Android, Windows) accepts it.
    public static let curve = "P-256"
    /// The longest common name X.509 allows (RFC 5280 appendix A.1, ub-common-name).
    static let maximumCommonNameLength = 64

    /// What `ensure` did.
    public enum Outcome: Equatable, Sendable {
        /// The certificate on disk fits and was kept.
        case reused
        /// A new certificate and key were written; `reason` says why (none yet, expired, a new name).
        case created(reason: String)
    }

    /// Keeps the certificate and key at these paths when they load, belong together, stay valid past the
    /// renewal margin and name every host name and address given; otherwise writes a new pair there (the
    /// key readable by its owner only; the folder is created 0700 when missing).
    public static func ensure(
        certificateFile: String, keyFile: String, hostNames: [String], addresses: [String]
    ) throws(HTTPServerError) -> Outcome {
        let (names, ips) = usable(hostNames: hostNames, addresses: addresses)
        guard let reason = problem(certificateFile: certificateFile, keyFile: keyFile, hostNames: names, addresses: ips)
        else { return .reused }
        try generate(certificateFile: certificateFile, keyFile: keyFile, hostNames: names, addresses: ips)
        return .created(reason: reason)
    }

    /// The names a certificate made for these host names and addresses holds, as `ensure` filters them: host
    /// names that DNS allows, addresses without zone, each once.
    public static func subjectNames(hostNames: [String], addresses: [String]) -> [String] {
        let (names, ips) = usable(hostNames: hostNames, addresses: addresses)
        return names + ips
    }

    /// The host names and addresses that can go into a certificate.
    private static func usable(hostNames: [String], addresses: [String]) -> (names: [String], addresses: [String]) {
        (hostNames.filter(isUsableHostName).uniqued(), addresses.map(Self.withoutZone).filter(isIPAddress).uniqued())
    }

    /// Why the pair on disk cannot be reused, or nil when it can.
    static func problem(certificateFile: String, keyFile: String, hostNames: [String], addresses: [String]) -> String? {
        guard access(certificateFile, F_OK) == 0 else { return "there was none" }
        do throws(HTTPServerError) {
            _ = try TLSContext(certificateFile: certificateFile, keyFile: keyFile)
        } catch {
            return "the one there does not load (\(error))"
        }
        guard let file = BIO_new_file(certificateFile, "r") else { return "the one there cannot be read" }
        defer { BIO_free(file) }
        guard let certificate = PEM_read_bio_X509(file, nil, nil, nil) else { return "the one there does not parse" }
        defer { X509_free(certificate) }
        var renewal = time(nil) + time_t(renewalMarginDays * 86_400)
        guard X509_cmp_time(X509_get0_notAfter(certificate), &renewal) > 0 else {
            return "the one there expires within \(renewalMarginDays) days"
        }
        for name in hostNames where X509_check_host(certificate, name, name.utf8.count, 0, nil) != 1 {
            return "the one there does not name \(name)"
        }
        for address in addresses where X509_check_ip_asc(certificate, address, 0) != 1 {
            return "the one there does not name \(address)"
        }
        return nil
    }

    /// Writes a new key and self-signed certificate, each through a temporary file and a rename.
    static func generate(
        certificateFile: String, keyFile: String, hostNames: [String], addresses: [String]
    ) throws(HTTPServerError) {
        ERR_clear_error()
        guard let key = vp_ec_key_generate(curve) else {
            throw .tls(reason: "cannot generate a key: \(TLSContext.lastError())")
        }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw .tls(reason: "cannot create a certificate") }
        defer { X509_free(certificate) }
        let commonName = String((hostNames.first ?? "localhost").prefix(maximumCommonNameLength))
        var serial: UInt64 = 0
        guard withUnsafeMutableBytes(of: &serial, { RAND_bytes($0.baseAddress, Int32($0.count)) }) == 1 else {
            throw .tls(reason: "no random serial number: \(TLSContext.lastError())")
        }
        let alternativeNames = (hostNames.map { "DNS:\($0)" } + addresses.map { "IP:\($0)" }).joined(separator: ",")
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set(X509_get_serialNumber(certificate), Int(serial >> 2)) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), validityDays * 86_400) != nil,
            X509_set_pubkey(certificate, key) == 1,
            let subject = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, "vprinter", -1, -1, 0) == 1,
            X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, subject) == 1
        else {
            throw .tls(reason: "cannot fill in the certificate: \(TLSContext.lastError())")
        }
        var extensions = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature,keyAgreement"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
        ]
        if !alternativeNames.isEmpty { extensions.append((NID_subject_alt_name, alternativeNames)) }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let entry = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .tls(reason: "cannot add the extension \(value): \(TLSContext.lastError())")
            }
            defer { X509_EXTENSION_free(entry) }
            guard X509_add_ext(certificate, entry, -1) == 1 else {
                throw .tls(reason: "cannot add the extension \(value): \(TLSContext.lastError())")
            }
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else {
            throw .tls(reason: "cannot sign the certificate: \(TLSContext.lastError())")
        }
        let keyPEM = try pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        let certificatePEM = try pem { PEM_write_bio_X509($0, certificate) }
        try makeFolder(of: keyFile)
        try makeFolder(of: certificateFile)
        try write(keyPEM, to: keyFile, mode: 0o600)
        try write(certificatePEM, to: certificateFile, mode: 0o644)
    }

    /// What a PEM writer writes, from a memory BIO.
    private static func pem(_ body: (OpaquePointer) -> Int32) throws(HTTPServerError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .tls(reason: "out of memory") }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { throw .tls(reason: "cannot write PEM: \(TLSContext.lastError())") }
        var data: UnsafeMutablePointer<CChar>?
        let length = vp_bio_mem_data(bio, &data)
        guard let data, length > 0 else { throw .tls(reason: "cannot write PEM") }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Creates the folder of a path (0700) when it is missing.
    private static func makeFolder(of path: String) throws(HTTPServerError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .system(call: "mkdir \(folder)", errno: errno)
        }
    }

    /// Writes bytes to a temporary file beside `path` with `mode`, then renames it over `path`.
    private static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(HTTPServerError) {
        let temporary = "\(path).new-\(getpid())"
        let file = try Syscall.run("open") {
            open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        }
        defer { Syscall.close(file) }
        var offset = 0
        while offset < bytes.count {
            offset += try bytes.withBytes { (raw) throws(HTTPServerError) in
                try Syscall.run("write") { Glibc.write(file, raw.baseAddress! + offset, raw.count - offset) }
            }
        }
        _ = try Syscall.run("fsync") { fsync(file) }
        _ = try Syscall.run("rename") { rename(temporary, path) }
    }

    /// Whether a name can be a DNS subject alternative name: letters, digits, `-` and `.`, not empty.
    static func isUsableHostName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 253
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x2E
            }
    }

    /// Whether text is a numeric IPv4 or IPv6 address.
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// An address without brackets or an IPv6 zone (`fe80::1%eth0`).
    static func withoutZone(_ address: String) -> String {
        var text = Substring(address)
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        return String(text.prefix { $0 != "%" })
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
