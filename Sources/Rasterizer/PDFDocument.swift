import CCairo
import CPoppler
import PrintModel

/// A PDF document opened with poppler-glib; owns the PopplerDocument and releases it with g_object_unref.
///
/// Not shareable between threads: each render thread opens its own copy of the document.
final class PDFDocument {
    private let document: OpaquePointer
    /// Number of pages.
    let pageCount: Int

    /// Opens `path`, decrypting with `password` when the document is encrypted.
    init(path: String, password: String?, limits: RenderLimits) throws(RasterError) {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(path, nil, &error) else {
            defer { g_error_free(error) }
            throw .io(path: path, operation: "open", errno: 0)
        }
        defer { g_free(uri) }
        let opened = poppler_document_new_from_file(uri, password, &error)
        guard let opened else {
            let code = error?.pointee.code ?? -1
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot open the document"
            if let error { g_error_free(error) }
            if code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) { throw .passwordRequired }
            throw .libraryFailure(library: "poppler", message: message)
        }
        document = opened
        pageCount = Int(poppler_document_get_n_pages(opened))
        guard pageCount > 0 else { throw .libraryFailure(library: "poppler", message: "the document has no pages") }
        try RenderLimits.check("maximum pages", pageCount, limits.maximumPages)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(document))
    }

    /// Size of page `index` (0-based) in points, after its /Rotate.
    func pageSize(_ index: Int) throws(RasterError) -> (width: Double, height: Double) {
        let page = try self.page(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw .libraryFailure(library: "poppler", message: "page \(index + 1) has an empty media box")
        }
        return (width, height)
    }

    /// Renders page `index` into a Cairo context set to page space, with annotations as printed.
    func render(_ index: Int, context: OpaquePointer) throws(RasterError) {
        let page = try self.page(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        poppler_page_render_for_printing(page, context)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .libraryFailure(library: "cairo", message: String(cString: cairo_status_to_string(status)))
        }
    }

    /// The text of page `index` (0-based) inside `area` (page points, origin at the top left), in reading order,
    /// as Poppler's text extraction finds it; nil area means none of the page is printed.
    func text(_ index: Int, area: (x1: Double, y1: Double, x2: Double, y2: Double)?) throws(RasterError) -> String {
        guard let area else { return "" }
        let page = try self.page(index)
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var rectangle = PopplerRectangle(x1: area.x1, y1: area.y1, x2: area.x2, y2: area.y2)
        guard let text = poppler_page_get_text_for_area(page, &rectangle) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    private func page(_ index: Int) throws(RasterError) -> OpaquePointer {
        guard let page = poppler_document_get_page(document, Int32(index)) else {
            throw .libraryFailure(library: "poppler", message: "cannot load page \(index + 1)")
        }
        return page
    }
}
