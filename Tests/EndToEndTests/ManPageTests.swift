import Foundation
import TestSupport
import Testing

@testable import vprinter

/// The manual pages (Sources/vprinter/ManPage.swift) against the option table and the help text: every option of
/// the table is on its page (an option of the "options:" list with its help on vprinter(1), vprinter-run(1) and
/// vprinter-exec(1); an option a command's usage line names on that command's page; the others on vprinter(1)),
/// and groff reads every page without a warning.
@Suite(.timeLimit(.minutes(1))) struct ManPageTests {
    /// The page as text, roff's escapes undone: what a reader sees, to search for an option and its help.
    static func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fI", with: "")
            .replacingOccurrences(of: "\\fR", with: "").replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\&", with: "").replacingOccurrences(of: "\\e", with: "\\")
    }

    /// `vprinter help --man [COMMAND]` as the binary prints it.
    static func page(_ command: String?, scratch: ScratchFolder) throws -> String {
        let run = try runVPrinter(["help", "--man"] + (command.map { [$0] } ?? []), scratch: scratch)
        #expect(run.status == 0, "help --man \(command ?? ""): \(run.err)")
        return run.out
    }

    /// The commands of `vprinter --help`'s usage lines and the `--options` each names, read from the help text.
    static func usageOptions(scratch: ScratchFolder) throws -> [String: Set<String>] {
        let help = try runVPrinter(["--help"], scratch: scratch).out
        var commands: [String: Set<String>] = [:]
        var current = ""
        let usage = help.components(separatedBy: "usage:\n")[1].components(separatedBy: "\n\n")[0]
        for line in usage.split(separator: "\n") {
            let words = line.split(whereSeparator: { " []|".contains($0) }).map(String.init)
            if line.hasPrefix("  vprinter ") {
                current = words.count > 1 && !words[1].hasPrefix("-") && words[1] != "options" ? words[1] : "run"
                if line.hasPrefix("  vprinter [run]") { current = "run" }
            }
            // Only the usage part of a line, not the description below it (column 32) or beside it (after a gap).
            if line.hasPrefix(String(repeating: " ", count: ManPage.descriptionColumn)) { continue }
            let usagePart = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "   ")[0]
            let names = usagePart.split(whereSeparator: { " []|".contains($0) }).filter { $0.hasPrefix("--") }
            commands[current, default: []].formUnion(names.map(String.init))
        }
        return commands
    }

    @Test func everyOptionOfTheTableIsOnItsPage() throws {
        let scratch = try ScratchFolder()
        let main = Self.plain(try Self.page(nil, scratch: scratch))
        let run = Self.plain(try Self.page("run", scratch: scratch))
        let exec = Self.plain(try Self.page("exec", scratch: scratch))
        let usage = try Self.usageOptions(scratch: scratch)
        #expect(usage.count >= 10, "the help text's commands: \(usage.keys.sorted())")
        var pages: [String: String] = [:]
        for command in usage.keys { pages[command] = Self.plain(try Self.page(command, scratch: scratch)) }
        for spec in OptionTable.runOptions {
            let help = spec.help.joined(separator: " ")
            for (name, page) in [("vprinter", main), ("vprinter-run", run), ("vprinter-exec", exec)] {
                #expect(
                    page.contains(spec.option + (spec.argument.isEmpty ? "" : " " + spec.argument)),
                    "\(name): \(spec.option)")
                #expect(page.contains(help), "\(name): the help of \(spec.option)")
            }
        }
        for spec in OptionTable.commandOptions {
            let commands = usage.filter { $0.value.contains(spec.option) }.map(\.key)
            if commands.isEmpty {
                #expect(main.contains(spec.option), "vprinter(1): \(spec.option), which no usage line names")
                #expect(!spec.help.isEmpty && main.contains(spec.help.joined(separator: " ")), "\(spec.option)")
            }
            for command in commands {
                #expect(pages[command]?.contains(spec.option) == true, "vprinter-\(command)(1): \(spec.option)")
            }
        }
    }

    @Test func everyPageIsReadByGroffWithoutAWarning() throws {
        let scratch = try ScratchFolder()
        let folder = scratch.path + "/man"
        let written = try runVPrinter(["help", "--man", "--out", folder], scratch: scratch)
        #expect(written.status == 0, "\(written.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let commands = try Self.usageOptions(scratch: scratch).keys.map { "vprinter-\($0).1" }
        #expect(files == (["vprinter.1"] + commands).sorted())
        for file in files {
            let groff = try ChildProcess.run(
                "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", "\(folder)/\(file)"])
            #expect(groff.status == 0 && groff.errorOutput.isEmpty, "\(file): \(groff.errorOutput)")
        }
    }

    @Test func aCommandWithoutAPageIsAUsageError() throws {
        let scratch = try ScratchFolder()
        let run = try runVPrinter(["help", "--man", "printing"], scratch: scratch)
        #expect(run.status == 2)
        #expect(run.err.contains("no command 'printing'") && run.err.contains("exec"), "\(run.err)")
    }
}
