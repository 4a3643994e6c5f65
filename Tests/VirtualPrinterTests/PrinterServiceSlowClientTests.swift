import Glibc
import HTTPServer
import IPP
import Testing

@testable import PrinterHTTP

/// Clients that trickle a request to hold the printer's connections (docs/security.md "Connections"): the head
/// and the IPP attributes must arrive by one deadline however steadily their bytes come.
@Suite(.timeLimit(.minutes(1))) struct PrinterServiceSlowClientTests {
    /// A server with a 0.5 s slow-client limit in front of the harness's printer.
    func server(_ harness: PrinterHarness) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                addresses: ["127.0.0.1"], port: 0, limits: HTTPServerLimits(slowClientTimeout: 0.5)),
            handler: harness.service)
        try server.start()
        return server
    }

    @Test func attributesTrickledByteByBytePastTheHeadDeadlineGet408() throws {
        let harness = try PrinterHarness()
        let server = try server(harness)
        defer { server.stop() }
        let message = IPPEncoder.encode(ippRequest(.getPrinterAttributes, printerURI: "ipp://127.0.0.1/ipp/print"))
        let client = try RawConnection(port: server.port)
        let started = ContinuousClock.now
        try client.send(
            Array(
                ("POST /ipp/print HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/ipp\r\n"
                    + "Content-Length: \(message.count)\r\n\r\n").utf8))
        // One byte every 50 ms, the whole request in about 4 s: each read gets its byte long before its own
        // timeout (0.5 s), and only the deadline of the whole can end it sooner.
        #expect(message.count * 50 > 3000)
        for byte in message where !client.hasInput {
            guard (try? client.send([byte])) != nil else { break }
            usleep(50_000)
        }
        let answered = ContinuousClock.now - started
        let answer = try client.receiveAll()
        #expect(answer.hasPrefix("HTTP/1.1 408 "), "\(answer.prefix(40))")
        #expect(answered < .milliseconds(1500))
    }

    @Test func aDocumentMayTakeLongerThanTheHeadDeadlineWhenEachPartComesInTime() throws {
        // A phone on slow Wi-Fi: the attributes at once, the document in pieces 0.2 s apart, 1.2 s in all, past
        // the head's deadline (0.5 s) while each read waits less than its own timeout (0.5 s).
        let harness = try PrinterHarness()
        let server = try server(harness)
        defer { server.stop() }
        let message = IPPEncoder.encode(
            ippRequest(
                .printJob, printerURI: "ipp://127.0.0.1/ipp/print",
                [
                    IPPAttribute("requesting-user-name", .name("alice")),
                    IPPAttribute("document-format", .mimeMediaType("application/octet-stream")),
                ]))
        let piece = [UInt8](repeating: 0x41, count: 1000)
        let client = try RawConnection(port: server.port)
        try client.send(
            Array(
                ("POST /ipp/print HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/ipp\r\n"
                    + "Content-Length: \(message.count + 6 * piece.count)\r\nConnection: close\r\n\r\n").utf8)
                + message)
        for _ in 0..<6 {
            usleep(200_000)
            try client.send(piece)
        }
        let answer = try client.receiveAll()
        #expect(answer.hasPrefix("HTTP/1.1 200 "), "\(answer.prefix(40))")
        let jobs = harness.printer.jobs
        #expect(jobs.count == 1)
        #expect(jobs.first?.documents.first?.size == 6 * piece.count)
    }
}

/// A blocking TCP client on 127.0.0.1 that sends exactly the bytes it is given.
private final class RawConnection {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw RawConnectionError.failed("connect", errno) }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw RawConnectionError.failed("send", errno)
        }
    }

    /// Whether the server sent something (or closed) that was not read yet.
    var hasInput: Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Everything the server sends until it closes (or 10 s pass), as text.
    func receiveAll() throws -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private enum RawConnectionError: Error {
    case failed(String, Int32)
}
