import CTesseract
import Glibc

/// Tesseract's C API (tesseract/capi.h), loaded with dlopen on the first OCR request rather than linked: the
/// library and the forty-odd libraries it needs (leptonica, libarchive, libcurl...) would otherwise be loaded at
/// every start of a render worker, which costs each job tens of milliseconds. The CTesseract module gives the
/// declarations' types; the functions are looked up here, once per process.
///
/// `@unchecked Sendable`: every field is set once in `init` and never changes; they are C function pointers into
/// a library that is never unloaded.
final class TesseractLibrary: @unchecked Sendable {
    /// The shared library's names, newest ABI first.
    static let libraryNames = ["libtesseract.so.5", "libtesseract.so"]

    /// The library, or why it cannot be used.
    static let shared: Result<TesseractLibrary, RasterError> = load()

    let create: @convention(c) () -> OpaquePointer?
    let delete: @convention(c) (OpaquePointer?) -> Void
    let initialize: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let setPageSegMode: @convention(c) (OpaquePointer?, TessPageSegMode) -> Void
    let setImage: @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void
    let setSourceResolution: @convention(c) (OpaquePointer?, Int32) -> Void
    let recognize: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let utf8Text: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let deleteText: @convention(c) (UnsafePointer<CChar>?) -> Void
    let clear: @convention(c) (OpaquePointer?) -> Void
    let end: @convention(c) (OpaquePointer?) -> Void

    private init(handle: UnsafeMutableRawPointer) throws(RasterError) {
        func symbol<T>(_ name: String, as type: T.Type) throws(RasterError) -> T {
            guard let address = dlsym(handle, name) else {
                throw .libraryFailure(library: "tesseract", message: "the library has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        create = try symbol("TessBaseAPICreate", as: (@convention(c) () -> OpaquePointer?).self)
        delete = try symbol("TessBaseAPIDelete", as: (@convention(c) (OpaquePointer?) -> Void).self)
        initialize = try symbol(
            "TessBaseAPIInit3",
            as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self)
        setPageSegMode = try symbol(
            "TessBaseAPISetPageSegMode", as: (@convention(c) (OpaquePointer?, TessPageSegMode) -> Void).self)
        setImage = try symbol(
            "TessBaseAPISetImage",
            as: (@convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void).self)
        setSourceResolution = try symbol(
            "TessBaseAPISetSourceResolution", as: (@convention(c) (OpaquePointer?, Int32) -> Void).self)
        recognize = try symbol(
            "TessBaseAPIRecognize", as: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int32).self)
        utf8Text = try symbol(
            "TessBaseAPIGetUTF8Text", as: (@convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?).self)
        deleteText = try symbol("TessDeleteText", as: (@convention(c) (UnsafePointer<CChar>?) -> Void).self)
        clear = try symbol("TessBaseAPIClear", as: (@convention(c) (OpaquePointer?) -> Void).self)
        end = try symbol("TessBaseAPIEnd", as: (@convention(c) (OpaquePointer?) -> Void).self)
    }

    private static func load() -> Result<TesseractLibrary, RasterError> {
        // Tesseract's OpenMP loops would start a thread team per side; the worker reads sides in parallel itself.
        // libgomp reads this when it is loaded, which is now.
        setenv("OMP_THREAD_LIMIT", "1", 0)
        var problems: [String] = []
        for name in libraryNames {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                problems.append(dlerror().map { String(cString: $0) } ?? name)
                continue
            }
            return Result { () throws(RasterError) in try TesseractLibrary(handle: handle) }
        }
        return .failure(
            .libraryFailure(
                library: "tesseract",
                message: "OCR needs libtesseract (Debian tesseract-ocr): \(problems.joined(separator: "; "))"))
    }
}
