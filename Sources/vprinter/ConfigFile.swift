import Foundation
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// A `--config FILE` (docs/config.md, docs/config.schema.json): the printers of the process, each with its
/// profile, name, own port, scenarios and options, and the process options keyed by their option names.
///
/// ```json
/// {"printers": [{"profile": "duplex-laser", "name": "desk-1", "port": 8632, "scenario": "out-of-paper",
///                "options": {"speed": "realistic"}}],
///  "output-dir": "vprinter-output", "render-workers": 2}
/// ```
struct ConfigFile: Sendable {
    /// The largest config file read (a fleet of thousands of printers fits).
    static let maximumFileSize = 16 << 20
    /// Keys of the file that are not process options.
    static let fileKeys: Set<String> = ["printers", "$schema"]
    /// Keys of one printer.
    static let printerKeys: Set<String> = ["profile", "name", "port", "scenario", "options"]
    /// The options a printer may set for itself (the rest apply to the whole process).
    static let printerOptions: Set<String> = [
        "speed", "consumables", "max-jobs", "max-document-size", "scenario", "strict", "fetch-allow", "fetch-deny",
    ]

    var file: String
    var printers: [PrinterSpec]
    /// The process options, as the parser's arguments.
    var processOptions: [OptionSources.Given]

    /// Reads and checks a config file; every problem is a usage error naming the file and the key.
    static func load(_ file: String) throws(UsageError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw UsageError("cannot read the config file \(file)")
        }
        guard data.count <= maximumFileSize else {
            throw UsageError("config \(file): larger than \(maximumFileSize) bytes")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw UsageError("config \(file): not a JSON object")
        }
        return try ConfigFile(object, file: file)
    }

    init(_ object: [String: Any], file: String) throws(UsageError) {
        self.file = file
        func problem(_ path: String, _ text: String) -> UsageError { UsageError("config \(file): \(path): \(text)") }
        var options: [OptionSources.Given] = []
        for key in object.keys.sorted() where !Self.fileKeys.contains(key) {
            guard key != "config" else { throw problem(key, "a config file cannot name another") }
            guard let arguments = try Self.arguments(key: key, value: object[key]!, path: key, file: file) else {
                throw problem(key, "not an option of vprinter (see vprinter --help)")
            }
            options.append(OptionSources.Given(option: "--" + key, arguments: arguments))
        }
        processOptions = options
        var printers: [PrinterSpec] = []
        if let list = object["printers"] {
            guard let entries = list as? [Any] else { throw problem("printers", "expected a list of printers") }
            for (index, entry) in entries.enumerated() {
                printers.append(try Self.printer(entry, path: "printers[\(index)]", file: file))
            }
        }
        self.printers = printers
    }

    /// One printer of the file.
    static func printer(_ entry: Any, path: String, file: String) throws(UsageError) -> PrinterSpec {
        func problem(_ key: String, _ text: String) -> UsageError {
            UsageError("config \(file): \(path).\(key): \(text)")
        }
        guard let object = entry as? [String: Any] else {
            throw UsageError("config \(file): \(path): expected an object")
        }
        if let unknown = object.keys.sorted().first(where: { !printerKeys.contains($0) }) {
            throw problem(unknown, "unknown key (keys: \(printerKeys.sorted().joined(separator: ", ")))")
        }
        let profile = object["profile"] ?? "duplex-laser"
        guard let profileName = profile as? String, !profileName.isEmpty else {
            throw problem("profile", "expected a profile name or file")
        }
        var spec = PrinterSpec(profile: relative(profileName, to: file))
        if let name = object["name"] {
            guard let text = name as? String else { throw problem("name", "expected a string") }
            do {
                try PrinterFactory.validate(name: text)
            } catch {
                throw problem("name", error.description)
            }
            spec.name = text
        }
        if let port = object["port"] {
            guard let number = port as? NSNumber, !isBoolean(number),
                number.doubleValue == number.doubleValue.rounded(), (0...65535).contains(number.intValue)
            else {
                throw problem("port", "expected a whole number from 0 to 65535")
            }
            spec.port = UInt16(number.intValue)
        }
        if let scenario = object["scenario"] {
            spec.scenarios += try scenarios(scenario, problem: { problem("scenario", $0) }).map {
                relative($0, to: file)
            }
        }
        if let options = object["options"] {
            guard let table = options as? [String: Any] else { throw problem("options", "expected an object") }
            var arguments: [String] = []
            for key in table.keys.sorted() {
                guard printerOptions.contains(key) else {
                    throw problem(
                        "options.\(key)",
                        "not a per-printer option (per printer: \(printerOptions.sorted().joined(separator: ", ")); the rest go at the top level)"
                    )
                }
                if key == "scenario" {
                    spec.scenarios += try scenarios(table[key]!, problem: { problem("options.scenario", $0) }).map {
                        relative($0, to: file)
                    }
                    continue
                }
                guard
                    let given = try Self.arguments(
                        key: key, value: table[key]!, path: "\(path).options.\(key)", file: file)
                else {
                    throw problem("options.\(key)", "not an option of vprinter")
                }
                arguments += given
            }
            let parsed: CommandLineOptions
            do {
                parsed = try CommandLineOptions.parse(arguments)
            } catch {
                throw problem("options", error.message)
            }
            spec.speed = parsed.speed.flatMap(PrintSpeed.init(rawValue:))
            spec.tracksConsumables = parsed.consumables.map { $0 == "tracked" }
            spec.maximumJobs = parsed.maximumJobs
            if table["max-document-size"] != nil { spec.maximumDocumentSize = parsed.maximumDocumentSize }
            if table["strict"] != nil { spec.strict = parsed.strict }
            spec.fetchPolicy = parsed.fetchPolicy
        }
        return spec
    }

    /// Whether a number from JSONSerialization is a JSON true or false (an NSNumber of Objective-C type `c`).
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A file path of the config (a profile or scenario file, one with a `/`) relative to the config file's
    /// folder; names and absolute paths stay as they are.
    static func relative(_ path: String, to file: String) -> String {
        guard path.contains("/"), !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).standardized.path
    }

    /// A scenario entry: one name or file, or a list of them.
    static func scenarios(_ value: Any, problem: (String) -> UsageError) throws(UsageError) -> [String] {
        if let one = value as? String { return [one] }
        if let list = value as? [Any], list.allSatisfy({ $0 is String }) { return list.compactMap { $0 as? String } }
        throw problem("expected a scenario name or file, or a list of them")
    }

    /// The parser's arguments for an option key and its JSON value: a string or number as the value, true or
    /// false for a switch, a list for a repeatable option (``OptionTable`` says which). Nil when no option of
    /// vprinter has that name.
    static func arguments(key: String, value: Any, path: String, file: String) throws(UsageError) -> [String]? {
        let option = "--" + key
        guard let spec = OptionTable.spec(named: option), spec.isSetting else { return nil }
        func problem(_ text: String) -> UsageError { UsageError("config \(file): \(path): \(text)") }
        let texts: [String]
        switch value {
        case let number as NSNumber where isBoolean(number):
            guard spec.kind == .flag else { throw problem("a value, not true or false") }
            return number.boolValue ? [option] : []
        case let text as String: texts = [text]
        case let number as NSNumber: texts = ["\(number)"]
        case let list as [Any]:
            guard list.allSatisfy({ $0 is String || $0 is NSNumber }) else {
                throw problem("a list of strings or numbers")
            }
            guard spec.kind == .repeatable else { throw problem("takes one value, not a list") }
            texts = list.map { "\($0)" }
        default:
            throw problem("a string, number, true/false or list")
        }
        if spec.kind == .flag {
            // A switch given as a word (texts holds one: a list was refused above), as from the environment.
            do {
                return try OptionSources.arguments(option: option, value: texts[0])
            } catch {
                throw problem(error.message)
            }
        }
        // Each string is one value, commas and all: a list, not a comma-separated string, gives several.
        let arguments = texts.map { "\(option)=\($0)" }
        do {
            _ = try CommandLineOptions.parse(arguments, checkingCombinations: false)
        } catch {
            throw problem(error.message)
        }
        return arguments
    }
}
