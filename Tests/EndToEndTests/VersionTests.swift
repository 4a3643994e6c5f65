import Foundation
import Testing

/// The version is kept in one place, the repository's VERSION file; scripts/set-version copies it where it cannot be
/// read when used (the binary, the Python package, the image's label, the Helm chart). A copy that differs fails here.
@Suite(.timeLimit(.minutes(1))) struct VersionTests {
    /// The repository's root, three folders above this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The VERSION file's one line.
    static func version() throws -> String {
        let text = try String(contentsOf: repository.appendingPathComponent("VERSION"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "VERSION holds one line: \(text.debugDescription)")
        return String(lines[0])
    }

    /// The first capture of `pattern` in the repository's file `path`, nil when it does not match.
    static func captured(_ pattern: String, in path: String) throws -> String? {
        let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
        let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    @Test func theVersionFileIsASemanticVersion() throws {
        let version = try Self.version()
        #expect(version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?/) != nil, "\(version)")
    }

    @Test func versionPrintsTheVersionFilesVersion() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["--version"], scratch: scratch)
        #expect(run.status == 0)
        #expect(run.out == "vprinter \(try Self.version())", "run scripts/set-version after changing VERSION")
    }

    @Test(arguments: [
        ("python/src/vprinter/_version.py", #"^__version__ = "([^"]*)"$"#),
        ("deploy/helm/vprinter/Chart.yaml", #"^version: (.*)$"#),
        ("deploy/helm/vprinter/Chart.yaml", #"^appVersion: "([^"]*)"$"#),
        ("Containerfile", #"^ARG VPRINTER_VERSION=(.*)$"#),
    ])
    func everyCopyIsTheVersionFilesVersion(path: String, pattern: String) throws {
        let copy = try Self.captured(pattern, in: path)
        #expect(copy == (try Self.version()), "\(path): run scripts/set-version after changing VERSION")
    }
}
