/// An element of a small XML document as the scanner reads one (an eSCL ScanSettings body): its local name (the
/// namespace prefix dropped, as eSCL clients differ in the prefixes they bind), its text and its children.
struct XMLElement: Sendable, Equatable {
    var name: String
    var text: String
    var children: [XMLElement]

    /// The first child named `name`.
    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// The trimmed text of the first child named `name`.
    func value(_ name: String) -> String? {
        child(name).map { $0.text.trimmingWhitespace() }
    }

    /// The first element named `name` anywhere below this one, depth first.
    func descendant(_ name: String) -> XMLElement? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
