import HTTPServer
import PrintModel
import PrinterCore
import PrinterHTTP
import RequestJournal
import VirtualPrinterKit

/// The parsed command line (DESIGN.md "Command line").
struct CommandLineOptions: Sendable, Equatable {
    enum Command: Sendable, Equatable {
        case run
        case exec
        case render
        case clone
        case profiles
        case jobs
        case wait
        case requests
        case verify
        case report
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
    /// The free space the output folder's disk must keep to accept jobs (`--min-free-disk`; 0: no floor).
    var minimumFreeDisk = DiskFloor.defaultMinimumFreeBytes
    /// The most pages rendered for one job (`--max-pages`); past it the job is aborted.
    var maximumPages: Int?
    var renderWorkers: Int?
    var json = false
    var url: String?
    var jobCount: Int?
    var timeout: Double = 60
    var verbose = false
    var apiToken: String?
    /// Folders whose profile and scenario files the API and the System Service may name (`--profile-dir`).
    var profileFolders: [String] = []
    /// Names a request's Host may give besides the machine's own (`--allowed-host`; `*` for any).
    var allowedHosts: [String] = []
    /// Where Print-URI and Send-URI may fetch from (`--fetch-allow`, `--fetch-deny`).
    var fetchPolicy = FetchPolicy()
    /// Origins API changes may come from besides the printer's own (`--allow-origin`; `*` for any).
    var allowedOrigins: [String] = []
    var maximumJobs: Int?
    /// Connections served at once, in all and from one client address (`--max-connections`,
    /// `--max-connections-per-address`); nil: the server's defaults, fitted to the descriptors the process may open.
    var maximumConnections: Int?
    var maximumConnectionsPerAddress: Int?
    var render = true
    var scenarios: [String] = []
    var speed: String?
    var consumables: String?
    /// What a start does with the unfinished jobs of an earlier run (`--on-restart`).
    var onRestart = "requeue"
    /// The request journal: entries kept in memory (0 turns it off), the bytes they may hold, and the size at
    /// which its file is rotated (0: no file).
    var journalSize = Journal.defaultCapacity
    var journalBytes = Journal.defaultByteLimit
    var journalFileSize = Journal.defaultRotationBytes
    /// Seconds between polls below which a client's polling is a finding (`--poll-interval`).
    var pollInterval = Journal.defaultPollInterval
    /// Printers refuse what a lenient printer substitutes or ignores (`--strict`).
    var strict = false
    /// `vprinter report`: the printer whose clients to report (all when nil) and the severity that fails it.
    var reportPrinter: String?
    var failOn = ClientFinding.Severity.error
    /// `vprinter requests`: the journal's filters (`--operation Print-Job`, ...), as query parameters.
    var requestFilters: [Filter] = []
    /// `vprinter verify`: the verification, a file, `-` for standard input, or the JSON itself.
    var verification: String?
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
    /// `--scan-source FILE|DIR`: what scanners scan instead of the test chart.
    var scanSource: String?
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
    /// `--across-releases`: the tolerant comparison of renderings by other renderer releases (docs/snapshots.md).
    var acrossReleases = false
    /// TLS and authentication (docs/security.md).
    var security = SecurityOptions()
    /// `--config FILE`: printers and process options as JSON (docs/config.md).
    var configFile: String?
    /// `--shard INDEX/COUNT`: the slice of the printers this process serves, of a fleet several serve.
    var shard = FleetShard.whole
    /// `--peers`: the other processes of a sharded fleet, whose printers and jobs the API's listings include.
    var peers: [String] = []
    /// `vprinter exec`: the command to run and its arguments (everything after `--`), the JUnit file to write
    /// (`--junit`) and the number of jobs the run must receive (`--expect-jobs`).
    var execCommand: [String] = []
    var junitFile: String?
    var expectedJobs: Int?
    /// `vprinter help --man [COMMAND]`: the manual page instead of the help text (ManPage.swift).
    var manual = false
    /// The command whose manual page `help --man COMMAND` prints; nil: vprinter(1).
    var manualCommand: String?

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
            case "exec": options.command = .exec
            case "render": options.command = .render
            case "clone": options.command = .clone
            case "profiles": options.command = .profiles
            case "jobs": options.command = .jobs
            case "wait": options.command = .wait
            case "requests": options.command = .requests
            case "verify": options.command = .verify
            case "report": options.command = .report
            case "compare": options.command = .compare
            case "help": options.command = .help
            default:
                throw UsageError(
                    "unknown command '\(first)' (commands: run, exec, render, clone, profiles, jobs, wait, requests, verify, "
                        + "report, compare, help)")
            }
            rest = rest.dropFirst()
        }
        func value(_ option: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            // vprinter exec: the command starts after `--`, or at the first argument that is no option.
            if options.command == .exec, argument == "--" || !argument.hasPrefix("-") {
                options.execCommand = (argument == "--" ? [] : [argument]) + rest
                break
            }
            if options.command == .help, !argument.hasPrefix("-") {
                guard options.manualCommand == nil else {
                    throw UsageError("help takes one command; '\(argument)' is a second")
                }
                options.manualCommand = argument
                continue
            }
            if options.command == .render, !argument.hasPrefix("-"), options.renderFile == nil {
                options.renderFile = argument
                continue
            }
            if options.command == .clone, !argument.hasPrefix("-"), options.cloneSource == nil {
                options.cloneSource = argument
                continue
            }
            if options.command == .verify, argument == "-" || !argument.hasPrefix("-") {
                guard options.verification == nil else {
                    throw UsageError("verify takes one verification; '\(argument)' is a second")
                }
                options.verification = argument
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
            // vprinter requests: the journal's filters of the JSON API, as options (--user is the request's user).
            if options.command == .requests, option.hasPrefix("--"),
                RequestFilter.parameterNames.contains(String(option.dropFirst(2)))
            {
                options.requestFilters.append(Filter(name: String(option.dropFirst(2)), value: try take()))
                continue
            }
            guard let spec = OptionTable.spec(named: option) else {
                throw UsageError("unknown option '\(argument)' (see vprinter --help)")
            }
            if spec.kind == .flag {
                guard inline == nil else { throw UsageError("\(spec.option) takes no value") }
                try spec.apply(&options, "")
            } else {
                try spec.apply(&options, try take())
            }
        }
        if checkingCombinations {
            try options.security.validate(hasAPIToken: options.apiToken != nil)
            if options.command == .exec, options.execCommand.isEmpty {
                throw UsageError("exec needs a command: vprinter exec [options] -- COMMAND [ARGUMENTS]")
            }
        }
        return options
    }

    /// The render worker's limits, with `--render-timeout` applied.
    var renderLimits: RenderWorkerClient.Limits {
        var limits = RenderWorkerClient.Limits()
        if let renderTimeout { limits.deadline = renderTimeout }
        if let maximumPages { limits.pages = maximumPages }
        return limits
    }

    /// Parses `500M`, `4G`, `1024K`, `64MiB`, `500KB` or a plain byte count (`ByteSize`).
    static func parseSize(_ text: String) -> Int? {
        ByteSize.parse(text)
    }

    /// The text of `vprinter --help`; its "options:" list comes from ``OptionTable``.
    static var usage: String { usageHead + "\n" + OptionTable.optionsHelp + "\n\n" + usageTail }

    /// The part of the help text before the "options:" list: the usage lines of every command, and the filters.
    static let usageHead = """
        vprinter: a virtual IPP Everywhere / AirPrint printer for testing.

        usage:
          vprinter [run] [options]      run the printer(s) until SIGINT or SIGTERM
          vprinter exec [options] [--junit FILE] [--expect-jobs N] [--timeout SECONDS] -- COMMAND [ARGUMENTS]
                                        start the printer(s), run COMMAND with VPRINTER_URI, VPRINTER_URIS,
                                        VPRINTER_API and VPRINTER_URL set, wait up to --timeout (default 60) for
                                        the jobs still printing, stop, print a summary of the jobs; exit with
                                        COMMAND's status, or 1 when it received other than --expect-jobs N jobs
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
                                        list the jobs recorded in an output folder, as text or JSON
          vprinter wait --url URL --count N [--timeout SECONDS] [FILTERS]
                                        wait until N jobs matching FILTERS have ended on a running printer,
                                        print their records as JSON; exit 1 at --timeout (default 60)
          vprinter requests --url URL [--count N [--timeout SECONDS]] [REQUEST-FILTERS]
                                        the requests a running printer received (its request journal), as JSON;
                                        with --count, waits until N match
          vprinter verify --url URL VERIFICATION
                                        ask the journal a verification (a JSON file, - for stdin, or the JSON);
                                        prints the answer; exit 0 when it passes, 1 when it fails
          vprinter report --url URL [--printer NAME] [--fail-on error|warning|info] [--json]
                                        what each client sent and did wrong (its findings, per rule); exit 1
                                        when a finding at or above --fail-on (default error) exists
          vprinter compare ACTUAL EXPECTED [--min-psnr DB] [--min-ssim X] [--max-diff-pixels N] [--diff DIR]
                   [--update] [--json] [--across-releases]
                                        compare printed sides (a job folder, a folder of PNGs or one PNG) with
                                        expected ones; exit 0 when all pass, 1 when one differs, 2 on bad input;
                                        --across-releases tolerates glyphs a pixel apart (other Poppler, Cairo)

        filters (jobs and wait; as in GET /api/v1/jobs, comma lists match any value):
          --printer NAME --name JOB-NAME --user NAME --state KEYWORD|ended|active --format pdf|pwg|MIME
          --media PWG-NAME|a4 --sides KEYWORD|two-sided --color-mode KEYWORD --text TEXT --since JOB-ID|TIME

        request filters (requests; as in GET /api/v1/requests):
          --printer NAME --operation NAME --status KEYWORD|HTTP-CODE --client ADDRESS|USER-AGENT --user NAME
          --job ID --kind ipp|http --since REQUEST-NUMBER|TIME --finding error|warning|info --rule RULE

        options:
        """

    private static let usageTail = """
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
