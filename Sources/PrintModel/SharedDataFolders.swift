import Foundation

/// Where vprinter's shared data is found (the `profiles` folder, the font configuration in `fonts`): beside an
/// installed binary (`../share/vprinter/NAME`, `../../share/vprinter/NAME` for the worker in `libexec/vprinter/`, then
/// `NAME`), in the checkout the binary was built in (the nearest
/// folder above the binary that holds `NAME/MARKER`), then `./NAME`.
public enum SharedDataFolders {
    /// How many folders above the running binary are searched for the checkout's folder: enough for a test bundle
    /// deep inside a package checkout's build folder.
    public static let maximumSearchDepth = 8

    /// The candidate folders for the shared data folder `name`, in the order they are tried, without repeats; only
    /// the checkout's folder is known to exist (it holds `marker`).
    public static func candidates(_ name: String, marker: String) -> [String] {
        // The executable itself, not argv[0]: started through PATH, argv[0] is only "vprinter".
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var folders = [
            binDirectory.appendingPathComponent("../share/vprinter/\(name)").standardized.path,
            // The render worker of a package, in libexec/vprinter/ (scripts/package).
            binDirectory.appendingPathComponent("../../share/vprinter/\(name)").standardized.path,
            binDirectory.appendingPathComponent(name).path,
        ]
        var folder = binDirectory
        for _ in 0..<maximumSearchDepth {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: "\(candidate)/\(marker)") {
                folders.append(candidate)
                break
            }
        }
        folders.append(FileManager.default.currentDirectoryPath + "/\(name)")
        var seen: Set<String> = []
        return folders.filter { seen.insert($0).inserted }
    }

    /// The first candidate folder of `name` that holds `file`: its path to that file.
    public static func find(_ file: String, in name: String) -> String? {
        candidates(name, marker: file).lazy.map { "\($0)/\(file)" }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
