import PrintModel

extension ScanJob {
    /// Bytes in one row of an image of `width` pixels as the job's color mode samples it: three a pixel in color,
    /// one in gray, one for eight pixels in black and white.
    public func bytesPerLine(width: Int) -> Int {
        switch settings.colorMode {
        case .rgb24: width * 3
        case .grayscale8: width
        case .blackAndWhite1: (width + 7) / 8
        }
    }

    /// The ScanImageInfo document (Mopria eSCL, `GET ScanJobs/{uuid}/ScanImageInfo`): the size of the image the job
    /// delivered last; nil before the first. `jobPath` is the job's URL path.
    public func imageInfoXML(jobPath: String) -> String? {
        guard let image = images.last else { return nil }
        return ESCLXML.document("scan:ScanImageInfo") { xml in
            xml.element("pwg:JobUri", jobPath)
            xml.element("pwg:JobUuid", uuid)
            xml.element("scan:ActualWidth", image.width)
            xml.element("scan:ActualHeight", image.height)
            xml.element("scan:ActualBytesPerLine", bytesPerLine(width: image.width))
        }
    }
}
