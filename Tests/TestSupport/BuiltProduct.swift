import Foundation

/// The executables this package builds, found beside the test bundle (`swift build` puts them together).
public enum BuiltProduct {
    /// Why a product cannot be found.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The path of the built executable `name`, looked for in the test bundle's folder and the four above it.
    public static func path(_ name: String) throws -> String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw Missing(description: "\(name) is not built next to the tests; run `swift build` first")
    }
}
