import CPoppler
import PrintModel

/// Collects what Poppler reports about a PDF while it is read (syntax errors and warnings, unimplemented
/// features) as warnings of the job. poppler-glib logs them to the GLib log domain `Poppler`; a handler for that
/// domain is installed while one document renders and reaches this object through its user-data pointer.
final class PopplerMessages {
    private let log: WarningLog
    private let document: Int
    private var handler: guint = 0

    /// Starts collecting for document number `document`.
    init(log: WarningLog, document: Int) {
        self.log = log
        self.document = document
        handler = g_log_set_handler(
            "Poppler", GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue), popplerLogHandler,
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops collecting; also done when the object goes.
    func stop() {
        if handler != 0 { g_log_remove_handler("Poppler", handler) }
        handler = 0
    }

    deinit {
        stop()
    }

    fileprivate func received(_ message: String) {
        log.report(JobWarning(kind: .pdf, document: document, message: message))
    }
}

/// The GLib log handler: forwards to the collector found through the user-data pointer.
private func popplerLogHandler(
    _ domain: UnsafePointer<gchar>?, _ level: GLogLevelFlags, _ message: UnsafePointer<gchar>?, _ data: gpointer?
) {
    guard let data, let message else { return }
    Unmanaged<PopplerMessages>.fromOpaque(data).takeUnretainedValue().received(String(cString: message))
}
