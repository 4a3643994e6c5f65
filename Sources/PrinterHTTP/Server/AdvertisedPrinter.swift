import IPP
import PrinterCore
import RequestJournal

/// A printer's attributes as the request checker reads them: a snapshot of its attribute cache, and the names of
/// the attributes it makes on every request.
struct AdvertisedPrinter: AdvertisedAttributes {
    let cache: PrinterAttributeCache

    init(_ printer: Printer) {
        cache = printer.cache
    }

    /// The attributes a request found (`IPPRequestContext.attributes`).
    init(_ cache: PrinterAttributeCache) {
        self.cache = cache
    }

    func advertised(_ name: String) -> IPPAttribute? { cache[name] }

    func hasAttribute(_ name: String) -> Bool {
        cache[name] != nil || Printer.dynamicAttributeNames.contains(name)
    }
}
