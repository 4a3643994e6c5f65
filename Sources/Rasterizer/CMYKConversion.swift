import CLCMS2

/// Turns CMYK inks into sRGB light through a press profile with lcms2, as a color-managed printer shows them and as
/// Ghostscript renders DeviceCMYK: its default CMYK profile, relative colorimetric, black point compensation.
///
/// One conversion serves the whole render worker: lcms2 transforms made without their one-pixel cache
/// (`cmsFLAGS_NOCACHE`) keep no state between calls, so the pages rendered in parallel share it.
final class CMYKConversion: @unchecked Sendable {
    /// The press profile: Ghostscript's default CMYK profile (Debian package libgs-common), the one `gs` renders
    /// DeviceCMYK to its RGB devices with.
    static let pressProfilePath = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// The conversion of this process, made on first use; nil when the press profile cannot be read, and then
    /// ``RasterPixelConverter/ink(_:_:)``, the complement model of a printer without a profile, shows the inks.
    static let shared = CMYKConversion(profilePath: pressProfilePath)

    /// The most pixels one `cmsDoTransform` call converts when the inks are gathered first.
    static let chunkPixels = 256

    private let transform: cmsHTRANSFORM

    /// The conversion from the CMYK profile at `profilePath` to sRGB; nil when the file is not a readable CMYK
    /// profile.
    init?(profilePath: String) {
        guard let press = cmsOpenProfileFromFile(profilePath, "r") else { return nil }
        defer { cmsCloseProfile(press) }
        guard cmsGetColorSpace(press) == cmsSigCmykData, let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_BLACKPOINTCOMPENSATION)
        guard
            let transform = cmsCreateTransform(
                press, vprinter_lcms_cmyk_8, sRGB, vprinter_lcms_rgb_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                flags)
        else { return nil }
        self.transform = transform
    }

    deinit {
        cmsDeleteTransform(transform)
    }

    /// Converts `count` pixels of 8-bit inks (C, M, Y, K; 0 = no ink) at `inks` into 8-bit R, G, B at `rgb`.
    func convert(_ inks: UnsafeRawPointer, into rgb: UnsafeMutableRawPointer, count: Int) {
        guard count > 0 else { return }
        cmsDoTransform(transform, inks, rgb, cmsUInt32Number(count))
    }
}
