
/// The color spaces of PWG Raster and Apple Raster pages, and how their samples become 8-bit gray or RGB.
///
/// PWG 5102.4 section 4.3.1.10 (cupsColorSpace values); Apple Raster uses its own codes, mapped in
/// ``URFPageHeader``.
public enum RasterColorSpace: Sendable, Equatable, CustomStringConvertible {
    /// Device RGB, additive (PWG 1).
    case rgb
    /// Black ink, 0 = white (PWG 3).
    case black
    /// CMYK inks, 0 = no ink (PWG 6).
    case cmyk
    /// sGray, 0 = black (PWG 18).
    case sGray
    /// sRGB (PWG 19).
    case sRGB
    /// Adobe RGB (1998) (PWG 20); shown as sRGB.
    case adobeRGB
    /// CIE L*a*b* (Apple Raster 2).
    case cieLab
    /// DeviceN with 1...15 colorants, 0 = no ink (PWG 48...62).
    case device(Int)

    /// The color space for a PWG cupsColorSpace code, or nil for codes PWG Raster does not allow.
    public init?(pwgCode: UInt32) {
        switch pwgCode {
        case 1: self = .rgb
        case 3: self = .black
        case 6: self = .cmyk
        case 18: self = .sGray
        case 19: self = .sRGB
        case 20: self = .adobeRGB
        case 48...62: self = .device(Int(pwgCode) - 47)
        default: return nil
        }
    }

    /// Number of color samples of one pixel.
    public var colorCount: Int {
        switch self {
        case .black, .sGray: 1
        case .rgb, .sRGB, .adobeRGB, .cieLab: 3
        case .cmyk: 4
        case .device(let count): count
        }
    }

    /// True when a sample of 0 means white (inks), false when 0 means black (light).
    public var isSubtractive: Bool {
        switch self {
        case .black, .cmyk, .device: true
        case .rgb, .sGray, .sRGB, .adobeRGB, .cieLab: false
        }
    }

    /// The byte that the 0x80 "rest of line is blank" code fills with (PWG 5102.4 section 5.3).
    public var blankByte: UInt8 { isSubtractive ? 0x00 : 0xFF }

    /// True when pages in this space become gray images, false for RGB images.
    public var isGray: Bool {
        switch self {
        case .black, .sGray: true
        case .device(let count): count < 3
        case .rgb, .sRGB, .adobeRGB, .cieLab, .cmyk: false
        }
    }

    public var description: String {
        switch self {
        case .rgb: "rgb"
        case .black: "black"
        case .cmyk: "cmyk"
        case .sGray: "sgray"
        case .sRGB: "srgb"
        case .adobeRGB: "adobe-rgb"
        case .cieLab: "cielab"
        case .device(let count): "device\(count)"
        }
    }
}
