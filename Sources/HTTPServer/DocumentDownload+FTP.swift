/// `ftp://` documents (RFC 959, RFC 2428, RFC 1738 section 3.2): an anonymous login, binary type, a passive data
/// connection (EPSV, else PASV) to the same host, and RETR of the URL's path; the same size and time limits as
/// http.
extension DocumentDownload {
    /// The FTP control port when the URL names none.
    static let ftpPort: UInt16 = 21
    /// The longest reply read from the server, in bytes.
    static let maximumReplyBytes = 16 * 1024

    static func fetchFTP(
        _ url: String, limits: Limits, policy: FetchPolicy, deadline: ContinuousClock.Instant,
        into sink: (UnsafeRawBufferPointer) -> Bool
    ) -> Result<Int, Failure> {
        let plain = "http://" + url.drop { $0 != ":" }.dropFirst("://".count)
        guard let (host, port, path) = HTTPClient.split(plain.replacingPort(default: ftpPort)), path.count > 1 else {
            return .failure(.badURL(url))
        }
        let file = String(decoding: HTTPClient.percentDecoded(String(path.dropFirst())), as: UTF8.self)
        guard !file.contains("\r"), !file.contains("\n") else { return .failure(.badURL(url)) }
        do throws(Failure) {
            var control = FTPControl(
                reader: BodyReader(
                    socket: try open(host, port, policy: policy, deadline: deadline, timeout: limits.timeout),
                    deadline: deadline,
                    timeout: limits.timeout))
            try control.expect([220])
            if try control.send("USER anonymous", expecting: [230, 331]) == 331 {
                try control.send("PASS vprinter@", expecting: [230, 202])
            }
            try control.send("TYPE I", expecting: [200])
            let dataPort = try control.passivePort()
            let data = try open(host, dataPort, policy: policy, deadline: deadline, timeout: limits.timeout)
            try control.send("RETR \(file)", expecting: [125, 150])
            var reader = BodyReader(socket: data, deadline: deadline, timeout: limits.timeout)
            let delivered = try reader.streamBody(
                of: ResponseHead(status: 200), limit: limits.maximumBytes, into: sink
            ).get()
            try control.expect([226, 250])
            return .success(delivered)
        } catch {
            return .failure(error)
        }
    }

    /// A connection to `host:port` that `policy` allows, or why not.
    static func open(
        _ host: String, _ port: UInt16, policy: FetchPolicy, deadline: ContinuousClock.Instant, timeout: Double
    ) throws(Failure) -> Socket {
        do throws(HTTPServerError) {
            return try HTTPClient.open(host: host, port: port, secure: false, deadline: deadline, policy: policy)
        } catch .timedOut {
            throw .timedOut(seconds: timeout)
        } catch .destinationRefused(let refusal) {
            throw .refused(refusal)
        } catch {
            throw .unreachable("\(host):\(port): \(error)")
        }
    }

    /// The control connection: commands sent, replies read (RFC 959 section 4.2, multi-line ones included).
    struct FTPControl {
        /// The control connection's reader; its `pending` holds what was read past the last line.
        var reader: BodyReader
        init(reader: BodyReader) {
            self.reader = reader
        }

        /// Sends a command; its reply.
        mutating func command(_ line: String) throws(Failure) -> (code: Int, text: String) {
            do throws(HTTPServerError) {
                try reader.socket.send(Array((line + "\r\n").utf8))
            } catch {
                throw .broken("\(error)")
            }
            return try reply()
        }

        /// Sends a command and reads its reply; its code, which must be one of `codes`.
        @discardableResult
        mutating func send(_ line: String, expecting codes: [Int]) throws(Failure) -> Int {
            let (code, text) = try command(line)
            guard codes.contains(code) else { throw .ftpReply("\(code) \(text)") }
            return code
        }

        /// Reads a reply; its code, which must be one of `codes`.
        @discardableResult
        mutating func expect(_ codes: [Int]) throws(Failure) -> Int {
            let (code, text) = try reply()
            guard codes.contains(code) else { throw .ftpReply("\(code) \(text)") }
            return code
        }

        /// The data port of EPSV (RFC 2428: `(|||port|)`), else of PASV (`h1,h2,h3,h4,p1,p2`); the data
        /// connection goes to the control connection's host whatever address PASV names.
        mutating func passivePort() throws(Failure) -> UInt16 {
            let (code, text) = try command("EPSV")
            if code == 229, let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") {
                let fields = text[text.index(after: open)..<close].split(
                    separator: "|", omittingEmptySubsequences: false)
                if fields.count == 5, let port = UInt16(fields[3]) { return port }
            }
            let passive = try command("PASV")
            guard passive.code == 227 else { throw .ftpReply("\(passive.code) \(passive.text)") }
            // h1,h2,h3,h4,p1,p2: the last six numbers of the reply's text.
            let digits = Array(passive.text.split { !$0.isNumber }.compactMap { Int($0) }.suffix(6))
            guard digits.count == 6, let high = UInt16(exactly: digits[4]), let low = UInt16(exactly: digits[5]),
                high < 256, low < 256
            else { throw .ftpReply("227 \(passive.text)") }
            return high * 256 + low
        }

        /// One reply: its code and the text of its last line.
        mutating func reply() throws(Failure) -> (code: Int, text: String) {
            var first = try line()
            guard first.count >= 3, let code = Int(first.prefix(3)) else { throw .broken("a bad FTP reply: \(first)") }
            if first.dropFirst(3).first == "-" {
                // A multi-line reply ends with the line that starts with the code and a space.
                repeat { first = try line() } while !(first.hasPrefix("\(code) ") || first == "\(code)")
            }
            return (code, String(first.dropFirst(min(4, first.count))))
        }

        /// One line of the control connection, without its CRLF.
        mutating func line() throws(Failure) -> String {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                if let end = reader.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = reader.pending[..<end]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    let text = String(decoding: line, as: UTF8.self)
                    reader.pending.removeSubrange(...end)
                    return text
                }
                guard reader.pending.count <= DocumentDownload.maximumReplyBytes else {
                    throw .broken("an FTP reply too long")
                }
                switch reader.read(into: buffer) {
                case .success(0): throw .broken("the FTP server closed the connection")
                case .success(let count): reader.pending += UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                case .failure(let failure): throw failure
                }
            }
        }
    }
}
