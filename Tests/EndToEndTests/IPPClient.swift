import Foundation
import IPP

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking IPP-over-HTTP client: one POST per connection, `Connection: close`, read to the end.
struct IPPClient {
    let host = "127.0.0.1"
    let port: UInt16
    let path: String

    /// The client for a printer URI such as `ipp://localhost:8631/ipp/print`.
    init(uri: String) throws {
        guard let components = URLComponents(string: uri), let port = components.port else {
            throw E2EError.badResponse("not a printer URI: \(uri)")
        }
        self.port = UInt16(port)
        path = components.path
    }

    /// Sends the request and document data; returns the decoded IPP response.
    func send(_ message: IPPMessage, data: [UInt8] = []) throws -> IPPMessage {
        let body = IPPEncoder.encode(message) + data
        let (status, responseBody) = try post(body)
        guard status == 200 else { throw E2EError.badResponse("HTTP status \(status)") }
        return try IPPDecoder().decode(responseBody).message
    }

    /// POSTs an application/ipp body; returns the HTTP status and body.
    func post(_ body: [UInt8]) throws -> (status: Int, body: [UInt8]) {
        let socket = try connect()
        defer { close(socket) }
        let head =
            "POST \(path) HTTP/1.1\r\nHost: localhost:\(port)\r\nContent-Type: application/ipp\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\nUser-Agent: vprinter-e2e\r\n\r\n"
        try sendAll(socket, Array(head.utf8) + body)
        return try parse(receiveAll(socket))
    }

    private func connect() throws -> Int32 {
        // Close-on-exec: a child another test starts meanwhile must not keep this connection open.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw E2EError.socket("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: Int(waitLimit), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(socket)
            throw E2EError.socket("connect to port \(port): errno \(errno)")
        }
        return socket
    }

    private func sendAll(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw E2EError.socket("send: errno \(errno)")
            }
            offset += sent
        }
    }

    private func receiveAll(_ socket: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR { continue }
                throw E2EError.socket("recv: errno \(errno)")
            }
            if count == 0 { return received }
            received += chunk[..<count]
            // CUPS keeps the connection open despite `Connection: close`: stop after Content-Length bytes.
            if let length = Self.expectedLength(received), received.count >= length { return received }
        }
    }

    /// The whole response's length when its head is in and gives a Content-Length.
    static func expectedLength(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        for line in String(decoding: bytes[..<end], as: UTF8.self).lowercased().components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0] == "content-length",
                let length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            {
                return end + 4 + length
            }
        }
        return nil
    }

    /// Splits an HTTP/1.1 response into status and body (Content-Length or read-to-close framing).
    private func parse(_ bytes: [UInt8]) throws -> (status: Int, body: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw E2EError.badResponse("no end of head in \(bytes.count) bytes")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw E2EError.badResponse("bad status line \(lines[0])")
        }
        var body = Array(bytes[(end + 4)...])
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length",
                let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length <= body.count
            {
                body = Array(body.prefix(length))
            }
        }
        return (status, body)
    }
}

/// Builds an IPP request with the operation attributes every request starts with.
func ippRequest(
    _ operation: IPPOperation, uri: String, requestID: Int32 = 1, _ extra: [IPPAttribute] = [],
    job: [IPPAttribute]? = nil
) -> IPPMessage {
    var group = IPPAttributeGroup(tag: .operationAttributes)
    group.append("attributes-charset", .charset("utf-8"))
    group.append("attributes-natural-language", .naturalLanguage("en"))
    group.append("printer-uri", .uri(uri))
    group.append("requesting-user-name", .name("e2e"))
    for attribute in extra { group.append(attribute) }
    var message = IPPMessage(version: .v2_0, operation: operation, requestID: requestID, groups: [group])
    if let job { message.groups.append(IPPAttributeGroup(tag: .jobAttributes, attributes: job)) }
    return message
}

extension IPPClient {
    /// Print-Job with a PDF document; returns the response.
    func printPDF(_ uri: String, _ data: [UInt8], requestID: Int32 = 1) throws -> IPPMessage {
        try send(
            ippRequest(
                .printJob, uri: uri, requestID: requestID,
                [
                    IPPAttribute("job-name", .name("e2e-\(requestID)")),
                    IPPAttribute("document-format", .mimeMediaType("application/pdf")),
                ]), data: data)
    }

    /// Polls Get-Job-Attributes until the job has ended or `waitLimit` passed; returns the last job-state.
    func waitForEnd(_ uri: String, jobID: Int) throws -> Int32? {
        let deadline = Date().addingTimeInterval(waitLimit)
        var state: Int32?
        repeat {
            let response = try send(
                ippRequest(
                    .getJobAttributes, uri: uri,
                    [
                        IPPAttribute("job-id", .integer(Int32(jobID))),
                        IPPAttribute("requested-attributes", .keyword("job-state")),
                    ]))
            state = response.attribute("job-state", in: .jobAttributes)?.value?.integerValue
            if let state, state >= 7 { return state }
            usleep(50_000)
        } while Date() < deadline
        return state
    }
}

extension IPPMessage {
    /// The job-id of the response's job attributes group.
    var jobID: Int? {
        attribute("job-id", in: .jobAttributes)?.value?.integerValue.map(Int.init)
    }
}
