/// One option of vprinter: its names, whether it takes a value, its line in `vprinter --help`, and what it sets.
/// The table of them (``OptionTable``) is the one source of the parser, the help text, the `VPRINTER_*` variables
/// and the `--config` keys; docs/config.schema.json is checked against the help text it makes.
struct OptionSpec: Sendable {
    /// How an option takes its value.
    enum Kind: Sendable, Equatable {
        /// A switch: given or not (`--no-dnssd`); from the environment or a config file, a true or false word.
        case flag
        /// One value; given again, the last one counts (`--port 0`).
        case value
        /// One value each time, all kept (`--profile`, `--user`); from the environment, a comma-separated list,
        /// from a config file, a JSON list.
        case repeatable
    }

    /// Where `vprinter --help` lists the option.
    enum Section: Sendable, Equatable {
        /// In the "options:" list: a setting of the printers and the process.
        case options
        /// On a command's usage line (`render`, `compare`, `jobs`, `wait`, `clone`, `profiles`) only.
        case command
    }

    /// The long name without its dashes: `output-dir`.
    let name: String
    /// Short or other names the parser takes the same way (`-o`).
    let aliases: [String]
    let kind: Kind
    /// The value's name in the help (`DIR`); empty for a switch.
    let argument: String
    let section: Section
    /// The help text, one string a line as `--help` shows it after the option's names.
    let help: [String]
    /// False for the options that choose what vprinter does rather than set it (`--help`, `--version`): they are
    /// no `VPRINTER_*` variable and no config key.
    let isSetting: Bool
    /// Sets the option's value (`""` for a switch) in the options being parsed; throws a usage error for a value
    /// the option does not take.
    let apply: @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void

    init(
        _ name: String, aliases: [String] = [], _ kind: Kind, argument: String = "", section: Section = .options,
        isSetting: Bool = true, help: [String] = [],
        apply: @escaping @Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.kind = kind
        self.argument = argument
        self.section = section
        self.help = help
        self.isSetting = isSetting
        self.apply = apply
    }

    /// An option that takes one of a few words (`--speed instant|realistic`); any other word is a usage error
    /// naming them.
    static func choice(
        _ name: String, _ choices: [String], help: [String],
        set: @escaping @Sendable (inout CommandLineOptions, String) -> Void
    ) -> OptionSpec {
        OptionSpec(name, .value, argument: choices.joined(separator: "|"), help: help) {
            options, value throws(UsageError) in
            guard choices.contains(value) else {
                throw UsageError("--\(name) is \(choices.joined(separator: " or ")), not '\(value)'")
            }
            set(&options, value)
        }
    }

    /// A whole number in `range`: `--name N`; any other value is a usage error naming the range.
    static func count(
        _ name: String, in range: ClosedRange<Int>, help: [String],
        set: @escaping @Sendable (inout CommandLineOptions, Int) -> Void
    ) -> OptionSpec {
        OptionSpec(name, .value, argument: "N", help: help) { options, value throws(UsageError) in
            guard let count = Int(value), range.contains(count) else {
                throw UsageError(
                    "--\(name) needs a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'")
            }
            set(&options, count)
        }
    }

    /// A size in bytes, `500M` or `4G` (CommandLineOptions.parseSize): `--name SIZE`, more than 0, or also 0 with
    /// `zeroAllowed`; any other value is a usage error giving `example`.
    static func size(
        _ name: String, example: String, zeroAllowed: Bool, help: [String],
        set: @escaping @Sendable (inout CommandLineOptions, Int) -> Void
    ) -> OptionSpec {
        OptionSpec(name, .value, argument: "SIZE", help: help) { options, value throws(UsageError) in
            guard let size = CommandLineOptions.parseSize(value), size > 0 || (zeroAllowed && size == 0) else {
                throw UsageError(
                    "--\(name) needs a size such as \(example)\(zeroAllowed ? ", or 0" : ""), not '\(value)'")
            }
            set(&options, size)
        }
    }

    /// `--name`.
    var option: String { "--" + name }

    /// The variable that sets it: `VPRINTER_OUTPUT_DIR` for `--output-dir`.
    var environmentVariable: String {
        OptionSources.prefix + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }
}
