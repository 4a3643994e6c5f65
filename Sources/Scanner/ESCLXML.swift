/// Builds the XML documents a scanner answers with: the eSCL and PWG namespaces, indented elements, text escaped.
struct ESCLXML {
    /// The eSCL namespace (prefix `scan`).
    static let esclNamespace = "http://schemas.hp.com/imaging/escl/2011/05/03"
    /// The PWG semantic model namespace (prefix `pwg`).
    static let pwgNamespace = "http://www.pwg.org/schemas/2010/12/sm"

    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var depth = 0

    /// A document whose root is `root` (a prefixed name), with both namespaces bound; `body` adds its content.
    static func document(_ root: String, _ body: (inout ESCLXML) -> Void) -> String {
        var xml = ESCLXML()
        xml.text += "<\(root) xmlns:scan=\"\(esclNamespace)\" xmlns:pwg=\"\(pwgNamespace)\">\n"
        xml.depth = 1
        body(&xml)
        xml.text += "</\(root)>\n"
        return xml.text
    }

    /// An element holding text.
    mutating func element(_ name: String, _ value: String) {
        text += String(repeating: "  ", count: depth) + "<\(name)>\(Self.escaped(value))</\(name)>\n"
    }

    /// An element holding a number.
    mutating func element(_ name: String, _ value: Int) { element(name, String(value)) }

    /// An element holding others, which `body` adds.
    mutating func element(_ name: String, _ body: (inout ESCLXML) -> Void) {
        text += String(repeating: "  ", count: depth) + "<\(name)>\n"
        depth += 1
        body(&self)
        depth -= 1
        text += String(repeating: "  ", count: depth) + "</\(name)>\n"
    }

    /// `value` with `&`, `<`, `>`, `"` and `'` as references.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
