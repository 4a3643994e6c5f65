import Glibc

/// TLS on a connection: from the first byte (a ClientHello, `ipps://`) or after an HTTP Upgrade (RFC 2817),
/// and 426 for plain requests when the server requires TLS.
extension Connection {
    /// Looks at the first bytes of a new connection on a TLS port without consuming them: a ClientHello
    /// starts the handshake, anything else stays plain. Returns false when the connection should end (the
    /// client sent nothing within the idle time, closed, failed the handshake, or the server stops).
    func startTransport(_ tls: TLSConfiguration) -> Bool {
        let deadline = ContinuousClock.now + .seconds(context.limits.idleTimeout)
        guard (try? socket.waitReadable(until: deadline, unlessReadable: context.stopDescriptor)) == .readable else {
            return false
        }
        var prefix = [UInt8](repeating: 0, count: TransportDetection.prefixLength)
        let descriptor = socket.descriptor
        let count =
            (try? Syscall.run("recv") {
                prefix.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
            }) ?? 0
        guard count > 0 else { return false }
        switch TransportDetection.classify(prefix.prefix(count)) {
        case .tls?: return handshake(tls)
        case .http?, nil: return true
        }
    }

    /// Runs the TLS handshake within the slow-client time (or until the server stops); on success every
    /// later read and send of the connection is encrypted.
    func handshake(_ tls: TLSConfiguration) -> Bool {
        do throws(HTTPServerError) {
            let session = try TLSSession(
                context: tls.context, descriptor: socket.descriptor, timeout: context.limits.slowClientTimeout)
            try session.handshake(
                until: .now + .seconds(context.limits.slowClientTimeout), unlessReadable: context.stopDescriptor)
            socket.tls = session
            // The client's last handshake flight has nothing to ride back on (no session tickets): acknowledge it
            // now, or a client that sends its request with Nagle on waits out the delayed ACK (40 ms).
            try? socket.setOption(level: Int32(IPPROTO_TCP), name: Int32(TCP_QUICKACK), value: 1)
            return true
        } catch {
            return false
        }
    }

    /// Whether a plain request switches to TLS here: an HTTP/1.1 request without a body that asks for it,
    /// with nothing pipelined behind it (bytes sent before the 101 cannot be part of the handshake).
    func wantsUpgrade(_ head: HTTPRequestHead, framing: HTTPBodyFraming) -> Bool {
        head.version == .http1_1 && framing == .length(0) && input.buffered.isEmpty
            && HTTPUpgrade.requestsTLS(head.headers)
    }

    /// RFC 2817 section 3.3: `101 Switching Protocols` in plain text, then the handshake; the response to the
    /// request itself then goes over TLS.
    func upgrade(_ tls: TLSConfiguration) -> Bool {
        let switching =
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: \(HTTPUpgrade.offeredProtocols)\r\n\r\n"
        do throws(HTTPServerError) {
            try socket.send(Array(switching.utf8))
        } catch {
            return false
        }
        return handshake(tls)
    }
}

extension HTTPResponse {
    /// 426 Upgrade Required (RFC 2817 section 4.2) offering TLS: the answer to a plain request that must come
    /// over TLS. The connection stays open, so that the client can upgrade it.
    public static func tlsRequired(_ text: String) -> HTTPResponse {
        var response = HTTPResponse(status: 426, text: text)
        response.headers.set("Upgrade", HTTPUpgrade.offeredProtocols)
        return response
    }
}
