import Foundation
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

    /// Runs `name` with `arguments`; returns its standard output; throws when it fails.
    @discardableResult
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
    ) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try locate(name))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            try process.run()
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(name) \(arguments.joined(separator: " ")) failed: \(errorText)")
        }
        return data
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
