import PrintModel

/// The pages of a PDF's page tree in order (ISO 32000-1 section 7.7.3), each with the attributes it inherits from
/// the nodes above it (section 7.7.3.4), read from objects ``PDFObjectScanner`` found.
struct PDFPageTree {
    /// The attributes a page inherits from the nodes above it when it has none of its own.
    static let inheritable = ["Resources", "MediaBox", "CropBox", "Rotate"]

    /// One page.
    struct Page {
        /// Its object number; nil when the tree holds the page as a direct dictionary.
        var number: Int?
        /// Its own entries.
        var entries: [String: PDFValue]
        /// The inheritable attributes of the nearest nodes above it that give them.
        var inherited: [String: PDFValue]
        /// The object number of the node each inherited attribute comes from, when that node is an indirect object.
        var inheritedFrom: [String: Int] = [:]

        /// Its entries with the inherited attributes it does not have itself.
        var effectiveEntries: [String: PDFValue] { entries.merging(inherited) { own, _ in own } }
    }

    /// The pages in order.
    let pages: [Page]

    /// The pages under `root` (the catalog's /Pages: a reference, or a dictionary), with `object` giving an
    /// indirect object's value by number; throws `.malformed` naming `format` when a node is missing, is neither a
    /// page (/Type /Page) nor a node with /Kids, or the tree is too deep or loops.
    init(root: PDFValue?, format: String, object: (Int) -> PDFValue?) throws(RasterError) {
        func fail(_ reason: String) -> RasterError { .malformed(format: format, reason: reason) }
        var pages: [Page] = []
        var visited: Set<Int> = []
        func walk(_ value: PDFValue?, inherited: [String: PDFValue], from sources: [String: Int], depth: Int)
            throws(RasterError)
        {
            var number: Int?
            var node = value
            if case .reference(let referenced, _)? = value {
                number = referenced
                node = object(referenced)
            }
            guard case .dictionary(let entries)? = node else {
                throw fail("a page of the page tree is missing (cut short?)")
            }
            guard depth < PDFObjectScanner.maximumDepth, number.map({ visited.insert($0).inserted }) ?? true else {
                throw fail("the page tree is too deep or loops")
            }
            if entries["Type"]?.nameValue == "Page" {
                pages.append(Page(number: number, entries: entries, inherited: inherited, inheritedFrom: sources))
                return
            }
            var kidsValue = entries["Kids"]
            if case .reference(let referenced, _)? = kidsValue { kidsValue = object(referenced) }
            guard case .array(let kids)? = kidsValue else { throw fail("a page tree node has no /Kids") }
            var passed = inherited
            var passedFrom = sources
            for key in Self.inheritable {
                guard let own = entries[key] else { continue }
                passed[key] = own
                passedFrom[key] = number
            }
            for kid in kids { try walk(kid, inherited: passed, from: passedFrom, depth: depth + 1) }
        }
        try walk(root, inherited: [:], from: [:], depth: 0)
        self.pages = pages
    }
}
