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

    /// The fonts the document uses without embedding them, each once, with the page it first appears on and the
    /// font the font configuration gives in its place (Poppler asks fontconfig as it does when it draws).
    func substitutedFonts() -> [FontSubstitution] {
        guard let info = poppler_font_info_new(document) else { return [] }
        defer { poppler_font_info_free(info) }
        var found: [FontSubstitution] = []
        var seen: Set<String> = []
        for index in 0..<pageCount {
            // Each scan reports the fonts of the next page that no earlier scan reported.
            var iterator: OpaquePointer?
            _ = poppler_font_info_scan(info, 1, &iterator)
            guard let iterator else { continue }
            defer { poppler_fonts_iter_free(iterator) }
            repeat {
                guard poppler_fonts_iter_is_embedded(iterator) == 0 else { continue }
                let name = poppler_fonts_iter_get_name(iterator).map { String(cString: $0) } ?? "(unnamed)"
                guard seen.insert(name).inserted else { continue }
                let substitute = poppler_fonts_iter_get_substitute_name(iterator).map { String(cString: $0) }
                let file = poppler_fonts_iter_get_file_name(iterator).map { String(cString: $0) }
                found.append(FontSubstitution(page: index + 1, name: name, substitute: substitute, file: file))
            } while poppler_fonts_iter_next(iterator) != 0
        }
        return found
    }

    private func page(_ index: Int) throws(RasterError) -> OpaquePointer {
        guard let page = poppler_document_get_page(document, Int32(index)) else {
            throw .libraryFailure(library: "poppler", message: "cannot load page \(index + 1)")
        }
        return page
    }
}
