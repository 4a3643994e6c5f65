extension String {
    /// The string with `\`, `"` and line feeds written as `\\`, `\"` and `\n`: for a value between double
    /// quotes in the text formats the printer writes (Prometheus label values, strings files).
    var quotedEscaped: String {
        guard contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return self }
        var escaped = ""
        for character in self {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
