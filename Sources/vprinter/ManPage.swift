import Foundation

/// The manual pages: vprinter(1) and vprinter-COMMAND(1), one per command, made from what `vprinter --help` is
/// made of (the usage lines and filters of ``CommandLineOptions/usageHead``, the options of ``OptionTable``), so
/// that a page cannot say other than the help text. `vprinter help --man [COMMAND]` prints one; `vprinter help
/// --man --out DIR` writes them all (scripts/package installs them). Tests/EndToEndTests/ManPageTests.swift checks
/// every option of the help text against its page.
enum ManPage {
    /// One command as the help text's usage lines give it.
    struct Command: Equatable {
        /// `run`, `exec`, ... (`vprinter [run] [options]` is run's).
        let name: String
        /// Its usage lines without the description, each without its indent.
        var synopsis: [String]
        /// What it does: the description lines beside its usage lines, joined.
        var description: [String]
        /// The filter lists of the help text that apply to it (jobs and wait, requests): heading and lines.
        var filters: [(heading: String, lines: [String])]

        static func == (left: Command, right: Command) -> Bool {
            left.name == right.name && left.synopsis == right.synopsis && left.description == right.description
        }
    }

    /// The column the help text's descriptions start at, beside or below the usage lines.
    static let descriptionColumn = 32
    /// The indent of a usage line's continuation: under the command's name (`  vprinter `).
    static let usageIndent = 2

    /// The commands of the help text, in its order (a command with several usage lines once).
    static var commands: [Command] {
        var commands: [Command] = []
        var lines = CommandLineOptions.usageHead.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.first, line != "usage:" { lines = lines.dropFirst() }
        lines = lines.dropFirst()
        while let line = lines.popFirst(), !line.isEmpty {
            let indent = line.prefix { $0 == " " }.count
            let (usage, description) = split(String(line))
            if indent == usageIndent, usage.hasPrefix("vprinter") {
                let words = usage.split(separator: " ")
                let name =
                    words.count > 1 && !words[1].hasPrefix("[") && !words[1].hasPrefix("-") ? String(words[1]) : "run"
                if let index = commands.firstIndex(where: { $0.name == name }) {
                    commands[index].synopsis.append(usage)
                    commands[index].description += description.map { [$0] } ?? []
                } else {
                    commands.append(
                        Command(name: name, synopsis: [usage], description: description.map { [$0] } ?? [], filters: [])
                    )
                }
            } else if let last = commands.indices.last {
                if !usage.isEmpty { commands[last].synopsis[commands[last].synopsis.count - 1] += " " + usage }
                if let description { commands[last].description.append(description) }
            }
        }
        // The filter lists: "filters (jobs and wait; ...):" and the lines under it, for the commands it names.
        while let heading = lines.popFirst() {
            guard heading.hasSuffix(":"), heading != "options:", let open = heading.firstIndex(of: "(") else {
                continue
            }
            var body: [String] = []
            while let line = lines.first, !line.isEmpty {
                body.append(line.trimmingCharacters(in: .whitespaces))
                lines = lines.dropFirst()
            }
            let scope = heading[open...].prefix { $0 != ";" && $0 != ")" }
            let named = Set(scope.split(whereSeparator: { !$0.isLetter }).map(String.init))
            for index in commands.indices where named.contains(commands[index].name) {
                commands[index].filters.append((String(heading.dropLast()), body))
            }
        }
        return commands
    }

    /// A usage line split at the description column: the usage (trimmed) and the description beside it, if any.
    private static func split(_ line: String) -> (usage: String, description: String?) {
        guard line.count > descriptionColumn else { return (line.trimmingCharacters(in: .whitespaces), nil) }
        let head = line.prefix(descriptionColumn)
        let tail = line.dropFirst(descriptionColumn)
        guard head.hasSuffix(" "), tail.first != " " else { return (line.trimmingCharacters(in: .whitespaces), nil) }
        return (head.trimmingCharacters(in: .whitespaces), String(tail))
    }

    /// The page of `name` (nil: vprinter(1)), or nil when no command has that name.
    static func page(_ name: String?) -> String? {
        let commands = commands
        guard let name else { return mainPage(commands) }
        return commands.first { $0.name == name }.map { commandPage($0, all: commands) }
    }

    /// Every page by its file name: `vprinter.1`, `vprinter-run.1`, ...
    static var pages: [(file: String, text: String)] {
        let commands = commands
        return [("vprinter.1", mainPage(commands))]
            + commands.map { ("vprinter-\($0.name).1", commandPage($0, all: commands)) }
    }

    /// `vprinter help --man [COMMAND] [--out DIR]`: prints the page, or writes every page into DIR.
    static func run(options: CommandLineOptions) -> Int32 {
        guard let folder = options.renderOutput else {
            guard let text = page(options.manualCommand) else {
                Console.log(
                    "error: no command '\(options.manualCommand ?? "")' (commands: "
                        + commands.map(\.name).joined(separator: ", ") + ")")
                return 2
            }
            Console.out(text, terminator: "")
            return 0
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, text) in pages {
                try text.write(toFile: "\(folder)/\(file)", atomically: true, encoding: .utf8)
                Console.out("\(folder)/\(file)")
            }
            return 0
        } catch {
            Console.log("error: cannot write the manual pages into \(folder): \(error.localizedDescription)")
            return 1
        }
    }

    // MARK: - The pages

    private static func header(_ title: String, summary: String) -> [String] {
        [
            ".TH \(title.uppercased()) 1 \"\" \"vprinter \(Version.string)\" \"vprinter manual\"",
            ".SH NAME",
            "\(escape(title)) \\- \(escape(summary))",
        ]
    }

    private static func mainPage(_ commands: [Command]) -> String {
        var lines = header("vprinter", summary: "a virtual IPP Everywhere / AirPrint printer for testing")
        lines += [".SH SYNOPSIS", ".nf"] + commands.flatMap(\.synopsis).map(escape) + [".fi"]
        lines += [
            ".SH DESCRIPTION",
            escape(
                "vprinter runs one or more virtual printers that clients find over DNS-SD and print to with IPP; "
                    + "it records every job and the pages it printed. Each command has a page of its own."),
            ".SH COMMANDS",
        ]
        for command in commands {
            lines += [".TP", "\\fB\(escape(command.name))\\fR", escape(sentence(command))]
            lines.append("See \\fBvprinter\\-\(escape(command.name))\\fR(1).")
        }
        lines += [".SH OPTIONS"] + optionItems()
        // The command options no usage line names (--help, --man).
        let named = Set(commands.flatMap(\.synopsis).flatMap(optionNames))
        let other = OptionTable.commandOptions.filter { !named.contains($0.option) }
        if !other.isEmpty { lines += [".SH OTHER OPTIONS"] + other.flatMap(item) }
        lines += environment()
        lines += [".SH SEE ALSO", commands.map { "\\fBvprinter\\-\(escape($0.name))\\fR(1)" }.joined(separator: ",\n")]
        return (lines + [""]).joined(separator: "\n")
    }

    private static func commandPage(_ command: Command, all: [Command]) -> String {
        var lines = header("vprinter-\(command.name)", summary: summary(command))
        lines += [".SH SYNOPSIS", ".nf"] + command.synopsis.map(escape) + [".fi"]
        lines += [".SH DESCRIPTION", escape(sentence(command))]
        // The options its usage lines name, with their help where the table has one.
        let named = Set(command.synopsis.flatMap(optionNames))
        let commandOptions = OptionTable.commandOptions.filter { named.contains($0.option) }
        if command.name == "run" || command.name == "exec" || !commandOptions.isEmpty {
            lines.append(".SH OPTIONS")
            lines += commandOptions.flatMap(item)
            if command.name == "run" || command.name == "exec" {
                lines += optionItems()
            } else {
                // The printer options the usage lines name (jobs: --output-dir, --no-ocr).
                lines += OptionTable.runOptions.filter { named.contains($0.option) }.flatMap(item)
            }
        }
        for filter in command.filters {
            // "filters (jobs and wait; ...)": the heading's first words as the section, the rest its first line.
            let words = filter.heading.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
            let scope = filter.heading.dropFirst(words.count).trimmingCharacters(in: .whitespaces)
            lines += [".SH \(escape(words.uppercased()))", escape(scope), ".PP", ".nf"] + filter.lines.map(escape)
            lines.append(".fi")
        }
        if command.name == "run" || command.name == "exec" { lines += environment() }
        lines += [".SH SEE ALSO", "\\fBvprinter\\fR(1)"]
        return (lines + [""]).joined(separator: "\n")
    }

    /// The options of the help text's "options:" list, each with its help.
    private static func optionItems() -> [String] {
        OptionTable.runOptions.flatMap(item)
    }

    private static func item(_ spec: OptionSpec) -> [String] {
        // As the help text writes it (`--profile NAME|FILE`), then the other names (`, -p`).
        let argument = spec.argument.isEmpty ? "" : " \\fI\(escape(spec.argument))\\fR"
        let names = (["\\fB\(escape(spec.option))\\fR" + argument] + spec.aliases.map { "\\fB\(escape($0))\\fR" })
            .joined(separator: ", ")
        return [".TP", names] + (spec.help.isEmpty ? [] : [escape(spec.help.joined(separator: " "))])
    }

    private static func environment() -> [String] {
        let tail = CommandLineOptions.usage.components(separatedBy: "\n\n").last ?? ""
        return [".SH ENVIRONMENT", escape(tail.split(separator: "\n").joined(separator: " "))]
    }

    /// The `--name` words of a usage line.
    private static func optionNames(_ line: String) -> [String] {
        line.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "|" }).map(String.init)
            .filter { $0.hasPrefix("-") }
    }

    /// The command's description, or where the help text gives none, its usage.
    private static func sentence(_ command: Command) -> String {
        command.description.isEmpty
            ? "vprinter \(command.name): as its synopsis shows; the filters below choose what it lists."
            : command.description.joined(separator: " ")
    }

    /// The NAME line's summary: the description up to its first comma or semicolon.
    private static func summary(_ command: Command) -> String {
        let text = sentence(command)
        let end = text.firstIndex { $0 == ";" || $0 == ":" } ?? text.endIndex
        return String(text[..<end])
    }

    /// Text as roff shows it: backslashes and dashes escaped, no line starting with a control character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
