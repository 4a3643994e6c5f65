/// Comparisons of secrets that take the same time whatever the bytes, so that a client cannot learn a
/// password or token byte by byte from how fast it is refused.
package enum ConstantTime {
    /// Whether two secrets are equal: their SHA-256 digests are compared in full, so neither the position
    /// of the first difference nor the length of the secret shows in the time taken.
    package static func equal(_ given: some Sequence<UInt8>, digest expected: [UInt8]) -> Bool {
        equalDigests(digest(of: given), expected)
    }

    /// The SHA-256 digest of a secret.
    package static func digest(of secret: some Sequence<UInt8>) -> [UInt8] {
        var hash = SHA256()
        hash.update(Array(secret))
        return Array(hash.hexDigest().utf8)
    }

    /// Compares two digests without stopping at the first difference.
    static func equalDigests(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
