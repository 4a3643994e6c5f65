import Glibc

/// A listening TCP socket and its accept loop.
struct Listener: Sendable {
    /// Queue length of pending connections passed to `listen`.
    static let backlog: Int32 = 1024
    /// Pause before accepting again after the process ran out of descriptors or memory.
    static let exhaustionBackoff: Duration = .milliseconds(100)

    /// The listening descriptor; the accept loop closes it when it ends.
    let descriptor: Int32
    /// The address bound, as text (`::`, `127.0.0.1`).
    let address: String
    /// The port bound.
    let port: UInt16

    /// Binds every configured address. An empty list binds `::` dual-stack, or `0.0.0.0` where the
    /// machine has no IPv6. With port 0, the first listener picks a free port and the others reuse it.
    static func openAll(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) -> [Listener] {
        var listeners: [Listener] = []
        var port = configuration.port
        do throws(HTTPServerError) {
            if configuration.addresses.isEmpty {
                do throws(HTTPServerError) {
                    listeners.append(try open(address: "::", port: port, dualStack: true))
                } catch  where error.hasErrno(EAFNOSUPPORT, EADDRNOTAVAIL) {
                    listeners.append(try open(address: "0.0.0.0", port: port, dualStack: false))
                }
            }
            for address in configuration.addresses {
                let dualStack = !configuration.addresses.contains("0.0.0.0")
                let listener = try open(address: address, port: port, dualStack: dualStack)
                listeners.append(listener)
                port = listener.port
            }
        } catch {
            for listener in listeners { listener.close() }
            throw error
        }
        return listeners
    }

    /// Creates, binds and listens on one socket, with `SO_REUSEADDR`; an IPv6 socket bound to `::`
    /// accepts IPv4 too when `dualStack` is set.
    static func open(address text: String, port: UInt16, dualStack: Bool, backlog: Int32 = backlog)
        throws(HTTPServerError) -> Listener
    {
        let address = try SocketAddress(numeric: text, port: port)
        let descriptor = try Syscall.run("socket") {
            socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(HTTPServerError) {
            var on: Int32 = 1
            var v6Only: Int32 = dualStack && address.host == "::" ? 0 : 1
            _ = try Syscall.run("setsockopt") {
                setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            if address.family == AF_INET6 {
                _ = try Syscall.run("setsockopt") {
                    setsockopt(
                        descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &v6Only, socklen_t(MemoryLayout<Int32>.size))
                }
            }
            do throws(HTTPServerError) {
                _ = try Syscall.run("bind") { address.withSockaddr { bind(descriptor, $0, $1) } }
            } catch  where error.hasErrno(EADDRINUSE) {
                throw .addressInUse(port: port)
            }
            _ = try Syscall.run("listen") { listen(descriptor, backlog) }
            var bound = SocketAddress()
            _ = try Syscall.run("getsockname") { bound.withMutableSockaddr { getsockname(descriptor, $0, $1) } }
            ListeningSockets.add(ListeningSockets.Endpoint(address: address.host, port: bound.port))
            return Listener(descriptor: descriptor, address: address.host, port: bound.port)
        } catch {
            Syscall.close(descriptor)
            throw error
        }
    }

    /// Closes the listening socket, which is then no longer one of the process's (`ListeningSockets`).
    func close() {
        ListeningSockets.remove(ListeningSockets.Endpoint(address: address, port: port))
        Syscall.close(descriptor)
    }

    /// Accepts connections until the server stops, starting a thread for each, then closes the listener.
    /// Running out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`) pauses and retries.
    func acceptLoop(context: ServerContext) {
        defer { close() }
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: context.stopDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !context.isStopping {
            guard (try? Syscall.run("poll") { poll(&descriptors, 2, -1) }) != nil else { continue }
            if descriptors[1].revents != 0 { return }
            var peer = SocketAddress()
            do throws(HTTPServerError) {
                let client = try Syscall.run("accept") { peer.withMutableSockaddr { accept(descriptor, $0, $1) } }
                _ = try? Syscall.run("fcntl") { fcntl(client, F_SETFD, FD_CLOEXEC) }
                Connection.admit(descriptor: client, peer: peer, localPort: port, context: context)
            } catch  where error.hasErrno(EMFILE, ENFILE, ENOBUFS, ENOMEM) {
                Syscall.sleep(for: Self.exhaustionBackoff)
            } catch {
                continue
            }
        }
    }
}
