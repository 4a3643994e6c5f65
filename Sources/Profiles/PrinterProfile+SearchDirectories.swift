import Foundation

extension PrinterProfile {
    /// How many folders above the running binary are searched for a `profiles` folder: enough for a test bundle
    /// deep inside a package checkout's build folder.
    static let maximumSearchDepth = 8

    /// Where profile names are looked up, in order: `VPRINTER_PROFILES` (colon-separated), beside an installed
    /// binary (`../share/vprinter/profiles`, `profiles`), the `profiles` folder of the checkout the binary was built
    /// in (the nearest folder above it that has one), then `./profiles`.
    public static func searchDirectories() -> [String] {
        var directories: [String] = []
        if let custom = ProcessInfo.processInfo.environment["VPRINTER_PROFILES"], !custom.isEmpty {
            directories += custom.split(separator: ":").map(String.init)
        }
        // The executable itself, not argv[0]: started through PATH, argv[0] is only "vprinter".
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let binDirectory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        directories.append(binDirectory.appendingPathComponent("../share/vprinter/profiles").standardized.path)
        directories.append(binDirectory.appendingPathComponent("profiles").path)
        var folder = binDirectory
        for _ in 0..<maximumSearchDepth {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("profiles").path
            if FileManager.default.fileExists(atPath: candidate + "/duplex-laser.json") {
                directories.append(candidate)
                break
            }
        }
        directories.append(FileManager.default.currentDirectoryPath + "/profiles")
        var seen: Set<String> = []
        return directories.filter { seen.insert($0).inserted }
    }
}
