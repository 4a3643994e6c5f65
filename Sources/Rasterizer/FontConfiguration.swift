import Foundation
import PrintModel

/// The render worker's fonts (docs/snapshots.md): vprinter's own fontconfig file, `fonts/fonts.conf`, names exactly
/// the font packages scripts/setup and the container image install, so that a document whose fonts are not embedded
/// prints with the same fonts on every machine. ``apply()`` sets it as `FONTCONFIG_FILE` before Poppler, Cairo or a
/// Ghostscript child first asks for a font.
public enum FontConfiguration {
    /// The file's name in the shared `fonts` folder (``SharedDataFolders``).
    public static let fileName = "fonts.conf"
    /// The environment variable that names another configuration file instead; set but empty, the machine's own
    /// configuration is used.
    public static let overrideVariable = "VPRINTER_FONTCONFIG"

    /// The configuration the worker uses.
    public enum Source: Sendable, Equatable {
        /// vprinter's own file, at this path.
        case vprinter(String)
        /// A file named by VPRINTER_FONTCONFIG.
        case custom(String)
        /// The machine's own configuration, and why.
        case machine(String)

        /// The file FONTCONFIG_FILE is set to, if any.
        var file: String? {
            switch self {
            case .vprinter(let path), .custom(let path): path
            case .machine: nil
            }
        }
    }

    /// The configuration of this process, found once.
    public static let inUse: Source = locate(environment: ProcessInfo.processInfo.environment)

    /// Points fontconfig at ``inUse`` (FONTCONFIG_FILE, inherited by Ghostscript); call before any font is read.
    public static func apply() {
        if let file = inUse.file { setenv("FONTCONFIG_FILE", file, 1) }
    }

    /// Which configuration a process with `environment` uses.
    static func locate(environment: [String: String]) -> Source {
        if let custom = environment[overrideVariable] {
            return custom.isEmpty
                ? .machine("\(overrideVariable) is set empty") : .custom(custom)
        }
        guard let file = SharedDataFolders.find(fileName, in: "fonts") else {
            return .machine("vprinter's fonts/\(fileName) was not found beside the binary or in its checkout")
        }
        return .vprinter(file)
    }
}
