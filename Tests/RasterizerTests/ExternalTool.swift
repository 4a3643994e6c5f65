import Foundation
import TestSupport
import Testing

/// Runs the independent reference tools (ghostscript, pdftocairo, ImageMagick, cups-filters) the tests compare
/// against. A missing tool fails the test with a message; nothing is skipped silently.
enum ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Finds `name` in PATH or in the cups filter folder.
    static func locate(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/lib/cups/filter"]
        for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
            return folder + "/" + name
        }
        throw Failure(description: "required tool \(name) is not installed (scripts/setup installs it)")
    }

    /// Runs `name` with `arguments`; returns its standard output; throws when it fails, or when it runs longer
    /// than ChildProcess's limit (it is killed then).
    @discardableResult
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
    ) throws -> Data {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(
                try locate(name), arguments, input: stdin.map { Array($0.utf8) }, environment: environment)
        } catch let failure as ChildProcess.Failure {
            throw Failure(description: failure.description)
        }
        guard result.status == 0 else {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) failed: \(result.errorOutput)")
        }
        return Data(result.output)
    }

    /// Runs ghostscript quietly with `arguments`.
    static func ghostscript(_ arguments: [String]) throws {
        try run("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE"] + arguments)
    }
}

/// A fresh temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rasterizer-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }
}
