import Glibc

extension Connection {
    /// Sends a response to `request` and returns whether the connection can stay open (a stream to an
    /// HTTP/1.0 client, or one that failed midway, cannot). HEAD gets the head alone.
    func send(_ response: HTTPResponse, to request: HTTPRequest, keepAlive: Bool) throws(HTTPServerError) -> Bool {
        let sendsContent = request.method != "HEAD" && !HTTPResponse.statusForbidsContent(response.status)
        switch response.abort {
        case .beforeResponse?:
            return false
        case .silence?:
            socket.waitForClose(
                until: .now + HTTPServerLimits.maximumSilence, unlessReadable: context.stopDescriptor,
                orWhen: response.silenceEnds)
            return false
        case .midResponse?:
            let bytes: [UInt8]
            if case .bytes(let content) = response.body { bytes = content } else { bytes = [] }
            appendHead(response, framing: .length(bytes.count), request: request, keepAlive: false)
            output += bytes.prefix(bytes.count / 2)
            try socket.send(output)
            return false
        case nil:
            break
        }
        switch response.body {
        case .bytes(let bytes):
            let framing =
                HTTPResponse.statusForbidsContent(response.status) ? .none : HTTPResponseFraming.length(bytes.count)
            appendHead(response, framing: framing, request: request, keepAlive: keepAlive)
            if sendsContent && bytes.count <= Self.maximumInlineBodyBytes {
                output += bytes
                try socket.send(output)
            } else {
                try socket.send(output)
                if sendsContent { try socket.send(bytes) }
            }
            return keepAlive
        case .file(let path):
            return try sendFile(
                path, response: response, request: request, keepAlive: keepAlive, sendsContent: sendsContent)
        case .stream(let produce):
            let chunked = request.version == .http1_1
            let keepAlive = keepAlive && (chunked || !sendsContent)
            appendHead(response, framing: chunked ? .chunked : .untilClose, request: request, keepAlive: keepAlive)
            try socket.send(output)
            guard sendsContent else { return keepAlive }
            let stream = HTTPResponseStream(socket: socket, chunked: chunked, context: context)
            do {
                try produce(stream)
                try stream.finish()
            } catch {
                return false
            }
            return keepAlive
        }
    }

    /// Sends a file with `sendfile`; a file that cannot be opened or is not a regular file is 404.
    private func sendFile(
        _ path: String, response: HTTPResponse, request: HTTPRequest, keepAlive: Bool, sendsContent: Bool
    ) throws(HTTPServerError) -> Bool {
        guard let file = try? Syscall.run("open", { open(path, O_RDONLY | O_CLOEXEC) }) else {
            return try send(Self.errorResponse(404), to: request, keepAlive: keepAlive)
        }
        defer { Syscall.close(file) }
        var status = stat()
        guard (try? Syscall.run("fstat", { fstat(file, &status) })) != nil, (status.st_mode & S_IFMT) == S_IFREG else {
            return try send(Self.errorResponse(404), to: request, keepAlive: keepAlive)
        }
        let size = Int(status.st_size)
        appendHead(response, framing: .length(size), request: request, keepAlive: keepAlive)
        try socket.send(output)
        if sendsContent { try socket.sendFile(file, count: size) }
        return keepAlive
    }

    /// Replaces the output buffer's content with the head of `response`.
    private func appendHead(
        _ response: HTTPResponse, framing: HTTPResponseFraming, request: HTTPRequest, keepAlive: Bool
    ) {
        output.removeAll(keepingCapacity: true)
        HTTPResponse.appendHead(
            status: response.status, reason: response.reason, headers: response.headers, framing: framing,
            keepAlive: keepAlive, requestVersion: request.version, date: date.now(), to: &output)
    }
}
