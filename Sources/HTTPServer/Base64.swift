/// Base64 decoding (RFC 4648 section 4) for the credentials of an `Authorization` header.
enum Base64 {
    /// The value of each alphabet byte, 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// Encodes bytes as base64 with padding.
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for byte in chunk { value = value << 8 | UInt32(byte) }
            value <<= UInt32(8 * (3 - chunk.count))
            for position in 0..<4 {
                output.append(
                    position <= chunk.count
                        ? alphabet[Int((value >> UInt32(18 - 6 * position)) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64 text; nil when it holds a byte outside the alphabet, padding anywhere but at the end,
    /// or a length no encoding has. Padding may be left out.
    static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        var body = text[...]
        var padding = 0
        while body.last == UInt8(ascii: "="), padding < 2 {
            body = body.dropLast()
            padding += 1
        }
        if padding > 0 && (body.count + padding) % 4 != 0 { return nil }
        if body.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(body.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in body {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // The bits left over must be zero (a canonical encoding), so one value has one spelling.
        return accumulator == 0 ? output : nil
    }
}
