import Glibc

/// CIE L*a*b* (D50, as Apple Raster encodes it: L* 0...100 over 0...255, a* and b* offset by 128) to sRGB.
enum CIELab {
    static func toSRGB(_ l8: UInt8, _ a8: UInt8, _ b8: UInt8) -> (UInt8, UInt8, UInt8) {
        let l = Double(l8) * 100 / 255
        let a = Double(a8) - 128
        let b = Double(b8) - 128
        let fy = (l + 16) / 116
        let fx = fy + a / 500
        let fz = fy - b / 200
        func inverse(_ t: Double) -> Double { t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29) }
        // D50 white, then Bradford-adapted XYZ (D50) to linear sRGB (D65).
        let x = 0.9642 * inverse(fx)
        let y = inverse(fy)
        let z = 0.8249 * inverse(fz)
        let r = 3.1338561 * x - 1.6168667 * y - 0.4906146 * z
        let g = -0.9787684 * x + 1.9161415 * y + 0.0334540 * z
        let bl = 0.0719453 * x - 0.2289914 * y + 1.4052427 * z
        func encode(_ v: Double) -> UInt8 {
            let c = max(0, min(1, v))
            let s = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
            return UInt8((s * 255).rounded())
        }
        return (encode(r), encode(g), encode(bl))
    }
}
