/// The version-number field of an IPP message (RFC 8010 section 3.4.1).
public struct IPPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8

    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    public static let v1_0 = Self(major: 1, minor: 0)
    public static let v1_1 = Self(major: 1, minor: 1)
    public static let v2_0 = Self(major: 2, minor: 0)
    public static let v2_1 = Self(major: 2, minor: 1)
    public static let v2_2 = Self(major: 2, minor: 2)

    public var description: String { "\(major).\(minor)" }
}
