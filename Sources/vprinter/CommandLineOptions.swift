import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

/// The parsed command line (DESIGN.md "Command line").
struct CommandLineOptions: Sendable, Equatable {
    enum Command: Sendable, Equatable {
        case run
        case render
        case clone
        case profiles
        case jobs
        case wait
        case compare
        case help
        case version
    }

    var command: Command = .run
    var profiles: [String] = []
    var name: String?
    var port: UInt16 = 8631
    var listen: [String] = []
    var outputDirectory = "vprinter-output"
    var dnssd = true
    var readyFile: String?
    var maximumDocumentSize = 4 << 30
    var renderWorkers: Int?
    var json = false
    var url: String?
    var jobCount: Int?
    var timeout: Double = 60
    var verbose = false
    var apiToken: String?
    var maximumJobs: Int?
    var render = true
    var scenarios: [String] = []
    var speed: String?
    var consumables: String?
    /// What a start does with the unfinished jobs of an earlier run (`--on-restart`).
    var onRestart = "requeue"
    /// `vprinter render`: the file, the output folder and the ticket options.
    var renderFile: String?
    var renderOutput: String?
    var ticket: [String: String] = [:]
    var renderDPI = 150
    /// Whether --render-dpi was given (it then caps raster input too).
    var renderDPIGiven = false
    /// `vprinter clone URI`: the printer's URI or DNS-SD service name (`--out` and `--name` as for the others).
    var cloneSource: String?
    /// `vprinter profiles --show NAME|FILE` (with `--ippserver`: as an ipptool --ippserver attribute file).
    var showProfile: String?
    var showAsAttributeFile = false
    /// `--render-timeout`: seconds a job may render before its worker (and its Ghostscript) is stopped.
    var renderTimeout: Double?
    /// `--no-ocr`: the text of raster sides is not read by OCR.
    var ocr = true
    /// `vprinter jobs` and `vprinter wait`: the job filters (`--state completed`, ...), as query parameters.
    var filters: [Filter] = []
    /// One job filter option (`--state completed` is name `state`, value `completed`).
    struct Filter: Sendable, Equatable {
        var name: String
        var value: String
    }
    /// `vprinter compare`: ACTUAL and EXPECTED, the thresholds, the difference folder and --update.
    var compareOperands: [String] = []
    var minimumPSNR: Double?
    var minimumSSIM: Double?
    var maximumDifferingPixels: Int?
    var differenceFolder: String?
    var update = false
    /// TLS and authentication (docs/security.md).
    var security = SecurityOptions()
    /// `--config FILE`: printers and process options as JSON (docs/config.md).
    var configFile: String?

    /// The default printer port: IPP's 631 needs privileges, so vprinter uses 8631.
    static let defaultPort: UInt16 = 8631

    /// Parses arguments (without the program name). `checkingCombinations` false skips the checks of options
    /// together (`--admin` needs `--user`, `--user` needs `--tls`...): for reading one option at a time, as the
    /// environment and config files are read before the whole is parsed and checked.
    static func parse(_ arguments: [String], checkingCombinations: Bool = true) throws(UsageError)
        -> CommandLineOptions
    {
        var options = CommandLineOptions()
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            switch first {
            case "run": options.command = .run
            case "render": options.command = .render
            case "clone": options.command = .clone
            case "profiles": options.command = .profiles
            case "jobs": options.command = .jobs
            case "wait": options.command = .wait
            case "compare": options.command = .compare
            case "help": options.command = .help
            default:
                throw UsageError(
                    "unknown command '\(first)' (commands: run, render, clone, profiles, jobs, wait, compare, help)")
            }
            rest = rest.dropFirst()
        }
        func value(_ option: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            if options.command == .render, !argument.hasPrefix("-"), options.renderFile == nil {
                options.renderFile = argument
                continue
            }
            if options.command == .clone, !argument.hasPrefix("-"), options.cloneSource == nil {
                options.cloneSource = argument
                continue
            }
            if options.command == .compare, !argument.hasPrefix("-") {
                guard options.compareOperands.count < 2 else {
                    throw UsageError("compare takes two paths, ACTUAL and EXPECTED; '\(argument)' is a third")
                }
                options.compareOperands.append(argument)
                continue
            }
            var option = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                option = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func take() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(option)
            }
            // vprinter jobs and wait: the job filters of the JSON API, as options (--name is the job's name there).
            if options.command == .jobs || options.command == .wait, option.hasPrefix("--"),
                JobQuery.filterNames.contains(String(option.dropFirst(2)))
            {
                options.filters.append(Filter(name: String(option.dropFirst(2)), value: try take()))
                continue
            }
            switch option {
            case "--profile", "-p": options.profiles.append(try take())
            case "--name", "-n": options.name = try take()
            case "--port":
                let text = try take()
                guard let port = UInt16(text) else {
                    throw UsageError("--port needs a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            case "--listen": options.listen.append(try take())
            case "--output-dir", "-o": options.outputDirectory = try take()
            case "--no-dnssd": options.dnssd = false
            case "--ready-file": options.readyFile = try take()
            case "--max-document-size":
                let text = try take()
                guard let size = parseSize(text), size > 0 else {
                    throw UsageError("--max-document-size needs a size such as 500M or 4G, not '\(text)'")
                }
                options.maximumDocumentSize = size
            case "--render-workers":
                let text = try take()
                guard let count = Int(text), count > 0, count <= 256 else {
                    throw UsageError("--render-workers needs a number from 1 to 256, not '\(text)'")
                }
                options.renderWorkers = count
            case "--no-render": options.render = false
            case "--scenario": options.scenarios.append(try take())
            case "--speed":
                let text = try take()
                guard text == "instant" || text == "realistic" else {
                    throw UsageError("--speed is instant or realistic, not '\(text)'")
                }
                options.speed = text
            case "--consumables":
                let text = try take()
                guard text == "unlimited" || text == "tracked" else {
                    throw UsageError("--consumables is unlimited or tracked, not '\(text)'")
                }
                options.consumables = text
            case "--on-restart":
                let text = try take()
                guard text == "requeue" || text == "abort" else {
                    throw UsageError("--on-restart is requeue or abort, not '\(text)'")
                }
                options.onRestart = text
            case "--render-dpi":
                let text = try take()
                guard let dpi = Int(text), dpi >= 10, dpi <= 1200 else {
                    throw UsageError("--render-dpi needs a resolution from 10 to 1200, not '\(text)'")
                }
                options.renderDPI = dpi
                options.renderDPIGiven = true
            case "--render-timeout":
                let text = try take()
                guard let seconds = Double(text), seconds >= 1, seconds <= 86_400 else {
                    throw UsageError("--render-timeout needs seconds from 1 to 86400, not '\(text)'")
                }
                options.renderTimeout = seconds
            case "--out": options.renderOutput = try take()
            case "--show": options.showProfile = try take()
            case "--ippserver": options.showAsAttributeFile = true
            case "--sides", "--number-up", "--media", "--copies", "--color-mode", "--scaling", "--page-ranges",
                "--orientation":
                options.ticket[String(option.dropFirst(2))] = try take()
            case "--json": options.json = true
            case "--url": options.url = try take()
            case "--jobs", "--count":
                let text = try take()
                guard let count = Int(text), count > 0 else { throw UsageError("\(option) needs a positive number") }
                options.jobCount = count
            case "--no-ocr": options.ocr = false
            case "--min-psnr":
                let text = try take()
                guard let value = Double(text), value.isFinite, value >= 0 else {
                    throw UsageError("--min-psnr needs decibels such as 30, not '\(text)'")
                }
                options.minimumPSNR = value
            case "--min-ssim":
                let text = try take()
                guard let value = Double(text), value >= 0, value <= 1 else {
                    throw UsageError("--min-ssim needs a number from 0 to 1 such as 0.99, not '\(text)'")
                }
                options.minimumSSIM = value
            case "--max-diff-pixels":
                let text = try take()
                guard let value = Int(text), value >= 0 else {
                    throw UsageError("--max-diff-pixels needs a pixel count such as 0, not '\(text)'")
                }
                options.maximumDifferingPixels = value
            case "--diff": options.differenceFolder = try take()
            case "--update": options.update = true
            case "--timeout":
                let text = try take()
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError("--timeout needs seconds between 0 and 86400, not '\(text)'")
                }
                options.timeout = seconds
            case "--config": options.configFile = try take()
            case "--api-token": options.apiToken = try take()
            case "--tls", "--tls-only", "--allow-plain-auth": try options.security.parse(option, value: nil)
            case "--tls-cert", "--tls-key", "--user", "--users", "--admin":
                try options.security.parse(option, value: try take())
            case "--max-jobs":
                let text = try take()
                guard let count = Int(text), count > 0 else {
                    throw UsageError("--max-jobs needs a positive number, not '\(text)'")
                }
                options.maximumJobs = count
            case "--verbose", "-v": options.verbose = true
            case "--help", "-h": options.command = .help
            case "--version": options.command = .version
            default: throw UsageError("unknown option '\(argument)' (see vprinter --help)")
            }
        }
        if checkingCombinations { try options.security.validate() }
        return options
    }

    /// The render worker's limits, with `--render-timeout` applied.
    var renderLimits: RenderWorkerClient.Limits {
        var limits = RenderWorkerClient.Limits()
        if let renderTimeout { limits.deadline = renderTimeout }
        return limits
    }

    /// Parses `500M`, `4G`, `1024K` or a plain byte count.
    static func parseSize(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = text.last?.uppercased().first, let unit = units[last] {
            return Int(text.dropLast()).flatMap { $0.multipliedReportingOverflow(by: unit).overflow ? nil : $0 * unit }
        }
        return Int(text)
    }

    static let usage = """
        vprinter: a virtual IPP Everywhere / AirPrint printer for testing.

        usage:
          vprinter [run] [options]      run the printer(s) until SIGINT or SIGTERM
          vprinter render FILE --out DIR [--profile NAME] [--sides S] [--number-up N] [--media PWG-NAME]
                   [--copies N] [--color-mode M] [--scaling S] [--page-ranges 1-3,5] [--orientation O]
                                        render a file as the printer would, without a server; prints the files
          vprinter profiles             list the shipped profiles
          vprinter profiles --show NAME|FILE [--ippserver]
                                        the IPP attributes (as ipptool shows them, or as an ipptool --ippserver
                                        attribute file) and the DNS-SD TXT record a profile gives; no printer runs
          vprinter clone URI|SERVICE-NAME [--out FILE] [--name NAME] [--timeout SECONDS]
                                        ask a printer (ipp:// URI or DNS-SD _ipp._tcp service name) for its
                                        attributes and TXT record and write them as a profile (default: stdout)
          vprinter jobs [--output-dir DIR] [--json] [FILTERS] [--no-ocr]
          vprinter wait --url URL --count N [--timeout SECONDS] [FILTERS]
          vprinter compare ACTUAL EXPECTED [--min-psnr DB] [--min-ssim X] [--max-diff-pixels N] [--diff DIR]
                   [--update] [--json]
                                        compare printed sides (a job folder, a folder of PNGs or one PNG) with
                                        expected ones; exit 0 when all pass, 1 when one differs, 2 on bad input

        filters (jobs and wait; as in GET /api/v1/jobs, comma lists match any value):
          --printer NAME --name JOB-NAME --user NAME --state KEYWORD|ended|active --format pdf|pwg|MIME
          --media PWG-NAME|a4 --sides KEYWORD|two-sided --color-mode KEYWORD --text TEXT --since JOB-ID|TIME

        options:
          --profile NAME|FILE           printer profile, or an ipptool --ippserver attribute file (repeat for
                                        several printers; default duplex-laser)
          --name TEXT                   printer and DNS-SD service name
          --port N                      TCP port (default 8631; 0 = any free port)
          --listen ADDR                 address to bind (repeatable; default: all)
          --output-dir DIR              where jobs are recorded (default ./vprinter-output)
          --no-dnssd                    do not advertise over DNS-SD
          --ready-file PATH             write the printer URI(s) there once accepting connections
          --config FILE                 printers (profile, name, port, scenario, options) and process options
                                        as JSON (docs/config.md)
          --max-document-size SIZE      largest document accepted (default 4G)
          --render-workers N            jobs rendered at once (default: one per core)
          --render-dpi N                highest resolution pages are rendered at (default 150 for documents;
                                        raster input keeps its own resolution unless this is given)
          --no-render                   keep documents only; no page images
          --render-timeout SECONDS      longest a job may render (default 900); PostScript gets 3 s less
          --scenario FILE               play the faults of a scenario file (see docs/scenarios.md); repeatable
          --speed instant|realistic     print at once, or as fast as pages-per-minute says (default instant)
          --consumables unlimited|tracked
                                        whether printing empties trays and supplies (default unlimited)
          --max-jobs N                  keep only the newest N jobs (records and folders) per printer
          --on-restart requeue|abort    jobs an earlier run accepted but did not finish: print them (default),
                                        or end them aborted
          --api-token TOKEN             accept API changes (POST, DELETE) from anywhere with this bearer token
          --no-ocr                      do not read the text of raster sides by OCR (GET /api/v1/jobs/ID/text)
          --tls                         also speak TLS (ipps://, HTTP Upgrade) on every port, with a self-signed
                                        certificate made at first start in OUTPUT/tls/
          --tls-cert FILE --tls-key FILE  TLS with this certificate (PEM, chain after it) and key
          --tls-only                    TLS only: plain requests get 426, only _ipps._tcp is advertised
          --user NAME:PASSWORD          ask for HTTP Basic credentials (repeatable); needs --tls
          --users FILE                  the users from a file, one name:password per line
          --admin NAME                  a user who may administer the printer (repeatable)
          --allow-plain-auth            accept credentials over plain HTTP too (clients under test)
          --verbose                     log every request on stderr
          --version                     print the version

        Every option can also be set as VPRINTER_<OPTION> (--output-dir as VPRINTER_OUTPUT_DIR, --no-dnssd as
        VPRINTER_NO_DNSSD=1, a repeatable option as a comma-separated list); the command line wins over the
        environment, and the environment over a --config file.
        """
}

/// A mistake on the command line: exit status 2 with this message.
struct UsageError: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}
