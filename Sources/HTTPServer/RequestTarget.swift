/// The parts of a request-target the handler needs: decoded path, decoded query, host of absolute form.
///
/// RFC 9112 section 3.2: origin form (`/path?query`), absolute form (`http://host:port/path?query`) and
/// asterisk form (`*`, for `OPTIONS` only) are accepted; authority form (for `CONNECT`) is not.
struct RequestTarget: Sendable {
    /// The percent-decoded path, starting with `/` (or `*` for the asterisk form).
    var path: String
    /// The query's `name=value` pairs, percent-decoded, `+` read as a space as HTML forms write it.
    var query: [(name: String, value: String)]
    /// The host of an absolute-form target, without port; nil for origin form.
    var host: String?
    /// The port of an absolute-form target, when it names one.
    var port: UInt16?

    /// Splits and decodes a request-target; anything malformed is `malformedRequest` (400).
    static func parse(_ target: String, method: String) throws(HTTPServerError) -> RequestTarget {
        var rest = Substring(target)
        var authority: (host: String, port: UInt16?)?
        if rest == "*" {
            guard method == "OPTIONS" else { throw .malformedRequest(reason: "asterisk target without OPTIONS") }
            return RequestTarget(path: "*", query: [], host: nil)
        }
        if rest.utf8.first != UInt8(ascii: "/") {
            guard let schemeEnd = rest.firstRange(of: "://") else {
                throw .malformedRequest(reason: "bad request-target")
            }
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else { throw .malformedRequest(reason: "bad target scheme") }
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd =
                rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
            authority = try hostAndPort(rest[..<authorityEnd])
            rest = rest[authorityEnd...]
            if rest.utf8.first != UInt8(ascii: "/") { rest = Substring("/" + String(rest)) }
        }
        let queryStart = rest.utf8.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = rest[..<(queryStart ?? rest.endIndex)]
        guard let path = percentDecoded(rawPath, plusIsSpace: false), !path.utf8.contains(0) else {
            throw .malformedRequest(reason: "bad percent-encoding in path")
        }
        var query: [(name: String, value: String)] = []
        if let queryStart {
            for pair in rest[rest.utf8.index(after: queryStart)...].split(separator: "&") {
                let equals = pair.utf8.firstIndex(of: UInt8(ascii: "="))
                guard let name = percentDecoded(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true),
                    let value = percentDecoded(
                        equals.map { pair[pair.utf8.index(after: $0)...] } ?? "", plusIsSpace: true)
                else { throw .malformedRequest(reason: "bad percent-encoding in query") }
                query.append((name: name, value: value))
            }
        }
        return RequestTarget(path: path, query: query, host: authority?.host, port: authority?.port)
    }

    /// The host part of `host[:port]` or `[v6]:port` (RFC 3986 section 3.2.2), nil when empty.
    static func hostWithoutPort(_ authority: Substring) throws(HTTPServerError) -> String? {
        try hostAndPort(authority)?.host
    }

    /// The host and port of `host[:port]` or `[v6]:port` (RFC 3986 section 3.2.2; IPv6 literals keep their
    /// brackets), nil when the host is empty; the port is nil when absent or empty (`host:`). A port beyond
    /// 65535, or 0, is malformed.
    static func hostAndPort(_ authority: Substring) throws(HTTPServerError) -> (host: String, port: UInt16?)? {
        var text = authority
        if let at = text.utf8.lastIndex(of: UInt8(ascii: "@")) { text = text[text.utf8.index(after: at)...] }
        let host: Substring
        let port: Substring
        if text.utf8.first == UInt8(ascii: "[") {
            guard let close = text.utf8.firstIndex(of: UInt8(ascii: "]")) else {
                throw .malformedRequest(reason: "bad IPv6 host")
            }
            host = text[...close]
            port = text[text.utf8.index(after: close)...]
            guard port.isEmpty || port.utf8.first == ASCII.colon else { throw .malformedRequest(reason: "bad host") }
        } else {
            let colon = text.utf8.firstIndex(of: ASCII.colon) ?? text.endIndex
            host = text[..<colon]
            port = text[colon...]
        }
        let digits = port.dropFirst()
        guard digits.utf8.allSatisfy({ ASCII.digitValue($0) != nil }), digits.utf8.count <= 5 else {
            throw .malformedRequest(reason: "bad port in host")
        }
        var number: UInt16?
        if !digits.isEmpty {
            guard let value = UInt16(digits), value > 0 else { throw .malformedRequest(reason: "bad port in host") }
            number = value
        }
        guard host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .malformedRequest(reason: "bad host")
        }
        return host.isEmpty ? nil : (String(host), number)
    }

    /// Decodes `%XX` escapes (RFC 3986 section 2.1); nil when an escape is malformed.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(ASCII.hexValue),
                    let low = iterator.next().flatMap(ASCII.hexValue)
                else { return nil }
                bytes.append(UInt8(high << 4 | low))
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(ASCII.space)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
