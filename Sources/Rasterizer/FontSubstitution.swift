import PrintModel

/// A font a PDF uses without embedding it, and what printed in its place: the font configuration's choice
/// (``FontConfiguration``), which Poppler draws with.
struct FontSubstitution: Sendable, Equatable {
    /// The 1-based page the font first appears on.
    var page: Int
    /// The font's name in the document (`Helvetica`, `ArialMT`).
    var name: String
    /// The name of the font used instead, when one was found.
    var substitute: String?
    /// The file of that font.
    var file: String?

    /// The job's warning (kind `font-substituted`), naming the configuration when it is not vprinter's own.
    func warning(document: Int, fonts: FontConfiguration.Source = FontConfiguration.inUse) -> JobWarning {
        var message =
            switch (substitute, file) {
            case (let substitute?, let file?):
                "font \(name) is not embedded: printed with \(substitute) (\(file.split(separator: "/").last ?? ""))"
            case (let substitute?, nil): "font \(name) is not embedded: printed with \(substitute)"
            case (nil, let file?): "font \(name) is not embedded: printed with \(file.split(separator: "/").last ?? "")"
            case (nil, nil): "font \(name) is not embedded and no font was found for it"
            }
        switch fonts {
        case .vprinter: break
        case .custom(let path): message += " (fonts of \(path))"
        case .machine(let reason): message += " (the machine's fonts: \(reason))"
        }
        return JobWarning(kind: .fontSubstituted, document: document, page: page, message: message)
    }
}
