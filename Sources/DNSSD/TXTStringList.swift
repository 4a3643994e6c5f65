import CAvahi

/// Converts TXT records between Swift and `AvahiStringList`.
///
/// avahi-client keeps a string list newest-first and reverses it when it serializes it, so adding the pairs
/// in order puts them on the wire in the same order (`txtvers` first). RFC 6763 section 6.
enum TXTStringList {
    /// A new list holding `key=value` for each pair, or nil for an empty record (Avahi then sends the single
    /// empty string that RFC 6763 section 6.1 asks for). The caller frees it with `avahi_string_list_free`.
    static func make(_ pairs: [(key: String, value: String)]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for (key, value) in pairs {
            let bytes = Array("\(key)=\(value)".utf8)
            list = bytes.withUnsafeBufferPointer { buffer in
                avahi_string_list_add_arbitrary(list, buffer.baseAddress, buffer.count)
            }
        }
        return list
    }
}
