/// Any JSON value read through `Decodable`, as Foundation-style objects: Bool, Int, Double, String, [Any],
/// [String: Any], or nil for JSON null. Used to hand a profile's raw `attributes` to `IPPJSON`.
struct DecodedJSON: Decodable {
    /// The value; `Optional<Any>.none` for null.
    var value: Any?

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = nil
        } else if let bool = try? single.decode(Bool.self) {
            value = bool
        } else if let integer = try? single.decode(Int.self) {
            value = integer
        } else if let number = try? single.decode(Double.self) {
            value = number
        } else if let string = try? single.decode(String.self) {
            value = string
        } else if let list = try? single.decode([DecodedJSON].self) {
            value = list.map { $0.value as Any }
        } else {
            let object = try single.decode([String: DecodedJSON].self)
            value = object.mapValues { $0.value as Any }
        }
    }
}
