import Foundation
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// Where options come from besides the command line (docs/config.md): `VPRINTER_<OPTION>`
/// variables and the process options of a `--config` file. Both become option arguments for the one parser,
/// so every option the parser knows has its variable and its config key without further code; the command
/// line wins over the environment, and the environment over the config file.
enum OptionSources {
    /// The prefix of option variables.
    static let prefix = "VPRINTER_"
    /// Variables with the prefix that name no option: the render worker, the profile folders, test settings and
    /// what `vprinter exec` gives its command (`ExecCommand.variables`; its `VPRINTER_URL` is `--url`).
    static let notOptions: Set<String> = [
        "VPRINTER_RENDER", "VPRINTER_PROFILES", "VPRINTER_FONTCONFIG", "VPRINTER_TEST_AVAHI", "VPRINTER_BIN",
        "VPRINTER_BINARY", "VPRINTER_URI", "VPRINTER_URIS", "VPRINTER_API",
    ]
    /// Words that switch a flag option on or off from the environment.
    static let trueWords: Set<String> = ["1", "true", "yes", "on"]
    static let falseWords: Set<String> = ["0", "false", "no", "off", ""]

    /// The options of a command line together with those of the environment and, when one is named, a config
    /// file; also the printers the config file describes.
    static func resolve(arguments: [String], environment: [String: String]) throws(UsageError) -> (
        options: CommandLineOptions, config: ConfigFile?
    ) {
        var command: [String] = []
        var rest = arguments
        if let first = rest.first, !first.hasPrefix("-") {
            command = [first]
            rest.removeFirst()
        }
        // `exec`'s command and its arguments are its own: no option of theirs hides a variable or a config key.
        var execCommand: [String] = []
        if command == ["exec"], let end = rest.firstIndex(where: { $0 == "--" || !$0.hasPrefix("-") }) {
            execCommand = Array(rest[end...])
            rest = Array(rest[..<end])
        }
        let fromEnvironment = try environmentArguments(environment)
        // The job filters of `jobs` and `wait` (--user, --name...) come from their command line only: the variables
        // of those names set the printer's credentials and name.
        let takesFilters = command == ["jobs"] || command == ["wait"]
        let environmentOnly = fromEnvironment.filter { given in
            !isGiven(given.option, in: rest)
                && !(takesFilters && JobQuery.filterNames.contains(String(given.option.dropFirst(2))))
        }.flatMap(\.arguments)
        let early = try CommandLineOptions.parse(
            command + environmentOnly + rest + execCommand, checkingCombinations: false)
        var config: ConfigFile?
        var fromConfig: [String] = []
        if let file = early.configFile, early.command == .run || early.command == .exec {
            let loaded = try ConfigFile.load(file)
            config = loaded
            fromConfig = loaded.processOptions.filter { option in
                !isGiven(option.option, in: rest) && !fromEnvironment.contains { $0.option == option.option }
            }.flatMap(\.arguments)
        }
        return (try CommandLineOptions.parse(command + fromConfig + environmentOnly + rest + execCommand), config)
    }

    /// An option (its long name, `--output-dir`) and the arguments that give it.
    struct Given {
        var option: String
        var arguments: [String]
    }

    /// The option arguments of the `VPRINTER_*` variables, in a stable order. Unknown variables are ignored
    /// with a warning on stderr; a value the option refuses is a usage error naming the variable.
    static func environmentArguments(_ environment: [String: String]) throws(UsageError) -> [Given] {
        var given: [Given] = []
        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix(prefix) {
            guard !notOptions.contains(variable) else { continue }
            let option = "--" + variable.dropFirst(prefix.count).lowercased().replacingOccurrences(of: "_", with: "-")
            do {
                guard let arguments = try arguments(option: option, value: value) else {
                    Console.log("warning: \(variable) names no option of vprinter; ignored")
                    continue
                }
                given.append(Given(option: option, arguments: arguments))
            } catch {
                throw UsageError("\(variable): \(error.message)")
            }
        }
        return given
    }

    /// The arguments that set `option` to `value`, as ``OptionTable`` says the option takes it: a switch is given
    /// or not by a true or false word; a repeatable option takes a comma-separated list; any other takes the
    /// value whole. Nil when no option has that name, or it is no setting (`--help`, `--version`).
    static func arguments(option: String, value: String) throws(UsageError) -> [String]? {
        guard let spec = OptionTable.spec(named: option), spec.isSetting else { return nil }
        switch spec.kind {
        case .flag:
            let word = value.lowercased()
            if trueWords.contains(word) { return [option] }
            if falseWords.contains(word) { return [] }
            throw UsageError("\(option) is a switch: give 1 or 0 (true or false), not '\(value)'")
        case .value:
            let whole = ["\(option)=\(value)"]
            _ = try CommandLineOptions.parse(whole, checkingCombinations: false)
            return whole
        case .repeatable:
            let items = value.split(separator: ",", omittingEmptySubsequences: false).map {
                "\(option)=\($0.trimmingCharacters(in: .whitespaces))"
            }
            _ = try CommandLineOptions.parse(items, checkingCombinations: false)
            return items
        }
    }

    /// Whether the command line gives `option` (`--name`, `--name=...`, or an alias of the same option, such as
    /// `-o` for `--output-dir`).
    static func isGiven(_ option: String, in arguments: [String]) -> Bool {
        let names = Set([option] + (OptionTable.spec(named: option)?.aliases ?? []))
        return arguments.contains { argument in
            guard argument.hasPrefix("-") else { return false }
            return names.contains(argument) || argument.hasPrefix(option + "=")
        }
    }
}
