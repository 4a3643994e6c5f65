import Foundation
import PrintModel
import Profiles

/// The bridge between ``JSONValue`` and the `Any` trees of `JSONSerialization` and the IPP/JSON mapping
/// (IPPJSON), for the JSON boundaries that still speak `Any`.
extension JSONValue {
    /// The value of a `JSONSerialization` object (NSNull, NSNumber, String, arrays, dictionaries), or of the Swift
    /// values IPPJSON makes (Bool, Int and Double reach the NSNumber case by bridging).
    init(any value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too, of Objective-C type "c" (char).
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let text as String: self = .string(text)
        case let list as [Any]: self = .array(list.map { JSONValue(any: $0) })
        case let object as [String: Any]: self = .object(object.mapValues { JSONValue(any: $0) })
        default: self = .string("\(value!)")
        }
    }

    /// The value as a `JSONSerialization` object; whole numbers as integers.
    package var anyValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .number(let value): intValue.map { $0 as Any } ?? value
        case .string(let value): value
        case .array(let values): values.map(\.anyValue)
        case .object(let members): members.mapValues(\.anyValue)
        }
    }
}
