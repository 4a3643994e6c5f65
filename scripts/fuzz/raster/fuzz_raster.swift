// Fuzz target for the pure PWG Raster and Apple Raster decoders (built by scripts/fuzz/run with
// -sanitize=fuzzer,address together with the files listed in `sources`).
import PrintModel

/// Decodes every page and row of the input with small limits; any crash or sanitizer report is a bug,
/// a thrown RasterError is the expected answer to bad data.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaster(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var limits = RenderLimits()
    limits.maximumPagePixels = 1_000_000
    limits.maximumImagePixels = 250_000
    limits.maximumPages = 16
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let reader = try RasterReader(input: MemoryInput(bytes), limits: limits)
        var page = 0
        while try reader.nextPage() != nil {
            page += 1
            if page == 1 {
                _ = try reader.readImage()
            } else {
                while try reader.nextRow() != nil {}
            }
        }
    } catch {
        _ = error.ippReason
    }
    return 0
}
