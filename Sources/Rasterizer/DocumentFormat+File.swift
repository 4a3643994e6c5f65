import PrintModel

extension DocumentFormat {
    /// The format of the file at `path`, from its first bytes (``DocumentFormat/detect(_:)``).
    public static func detect(path: String) throws(RasterError) -> DocumentFormat? {
        detect(try FileContents.prefix(path: path, count: detectionLength))
    }
}
