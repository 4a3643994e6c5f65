import Foundation
import PrintModel

extension PrinterProfile {
    /// Where profile names are looked up, in order: `VPRINTER_PROFILES` (colon-separated), then the `profiles`
    /// folders of ``SharedDataFolders`` (beside an installed binary, the checkout's, `./profiles`).
    public static func searchDirectories() -> [String] {
        var directories: [String] = []
        if let custom = ProcessInfo.processInfo.environment["VPRINTER_PROFILES"], !custom.isEmpty {
            directories += custom.split(separator: ":").map(String.init)
        }
        directories += SharedDataFolders.candidates("profiles", marker: "duplex-laser.json")
        var seen: Set<String> = []
        return directories.filter { seen.insert($0).inserted }
    }
}
