import Foundation

/// Where profile names are looked up: `VPRINTER_PROFILES`, then beside the installed binary, then the
/// source tree the binary was built in, then `./profiles`.
enum ProfileSearch {
    static func directories() -> [String] {
        var directories: [String] = []
        if let custom = ProcessInfo.processInfo.environment["VPRINTER_PROFILES"], !custom.isEmpty {
            directories += custom.split(separator: ":").map(String.init)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let binDirectory = executable.deletingLastPathComponent()
        directories.append(binDirectory.appendingPathComponent("../share/vprinter/profiles").standardized.path)
        directories.append(binDirectory.appendingPathComponent("profiles").path)
        // .build/<configuration>/vprinter or .build/<triple>/<configuration>/vprinter inside a checkout.
        var folder = binDirectory
        for _ in 0..<4 {
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
