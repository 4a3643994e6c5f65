import Foundation
import HTTPServer
import PrinterCore
import PrinterHTTP
import RequestJournal

/// Every option of vprinter, in the order `vprinter --help` lists them (docs/config.md): the one table that the
/// parser, the help text, the `VPRINTER_*` variables and the `--config` keys are made from.
enum OptionTable {
    static let all: [OptionSpec] = runOptions + commandOptions

    /// The options of `vprinter run`, listed under "options:".
    static let runOptions: [OptionSpec] = [
        OptionSpec(
            "profile", aliases: ["-p"], .repeatable, argument: "NAME|FILE",
            help: [
                "printer profile, or an ipptool --ippserver attribute file (repeat for",
                "several printers; default duplex-laser)",
            ]
        ) { options, value in options.profiles.append(value) },
        OptionSpec("name", aliases: ["-n"], .value, argument: "TEXT", help: ["printer and DNS-SD service name"]) {
            options, value in options.name = value
        },
        OptionSpec("port", .value, argument: "N", help: ["TCP port (default 8631; 0 = any free port)"]) {
            options, value throws(UsageError) in
            guard let port = UInt16(value) else {
                throw UsageError("--port needs a number from 0 to 65535, not '\(value)'")
            }
            options.port = port
        },
        OptionSpec("listen", .repeatable, argument: "ADDR", help: ["address to bind (repeatable; default: all)"]) {
            options, value in options.listen.append(value)
        },
        OptionSpec(
            "output-dir", aliases: ["-o"], .value, argument: "DIR",
            help: ["where jobs are recorded (default ./vprinter-output)"]
        ) { options, value in options.outputDirectory = value },
        OptionSpec("no-dnssd", .flag, help: ["do not advertise over DNS-SD"]) { options, _ in options.dnssd = false },
        OptionSpec(
            "ready-file", .value, argument: "PATH", help: ["write the printer URI(s) there once accepting connections"]
        ) { options, value in options.readyFile = value },
        OptionSpec(
            "config", .value, argument: "FILE",
            help: [
                "printers (profile, name, port, scenario, options) and process options",
                "as JSON (docs/config.md)",
            ]
        ) { options, value in options.configFile = value },
        OptionSpec(
            "shard", .value, argument: "INDEX/COUNT",
            help: [
                "serve slice INDEX (from 0) of COUNT of the printers, the others served by",
                "other processes: every COUNT-th from INDEX; job-ids unique across slices;",
                "INDEX may end a name (vprinter-2/3), or be 'hostname': the number that ends",
                "this machine's host name, as a StatefulSet pod's does",
            ]
        ) { options, value throws(UsageError) in
            let hostNamed = value.hasPrefix(FleetShard.hostNameIndex + "/")
            let given =
                hostNamed
                ? (LocalAddresses.hostName ?? "") + value.dropFirst(FleetShard.hostNameIndex.count) : value
            guard let shard = FleetShard(given) else {
                throw UsageError(
                    "--shard needs INDEX/COUNT with INDEX from 0 to COUNT-1 (or NAME-INDEX/COUNT, or hostname/COUNT"
                        + " on a host whose name ends in -INDEX), not '\(hostNamed ? given : value)'")
            }
            options.shard = shard
        },
        OptionSpec(
            "peers", .repeatable, argument: "HOST:PORT",
            help: [
                "the other processes of a sharded fleet (repeatable; a name may resolve to",
                "several, as a headless Service's): the API's printer and job listings",
                "include theirs",
            ]
        ) { options, value throws(UsageError) in
            guard FleetPeers([value]) != nil else {
                throw UsageError("--peers needs HOST:PORT or http(s)://HOST:PORT, not '\(value)'")
            }
            options.peers.append(value)
        },
        .size(
            "max-document-size", example: "500M or 4G", zeroAllowed: false,
            help: ["largest document accepted (default 4G)"]
        ) { options, size in options.maximumDocumentSize = size },
        OptionSpec(
            "render-workers", .value, argument: "N", help: ["jobs rendered at once (default: one per core)"]
        ) { options, value throws(UsageError) in
            guard let count = Int(value), count > 0, count <= 256 else {
                throw UsageError("--render-workers needs a number from 1 to 256, not '\(value)'")
            }
            options.renderWorkers = count
        },
        OptionSpec(
            "render-dpi", .value, argument: "N",
            help: [
                "highest resolution pages are rendered at (default 150 for documents;",
                "raster input keeps its own resolution unless this is given)",
            ]
        ) { options, value throws(UsageError) in
            guard let dpi = Int(value), dpi >= 10, dpi <= 1200 else {
                throw UsageError("--render-dpi needs a resolution from 10 to 1200, not '\(value)'")
            }
            options.renderDPI = dpi
            options.renderDPIGiven = true
        },
        OptionSpec("no-render", .flag, help: ["keep documents only; no page images"]) { options, _ in
            options.render = false
        },
        OptionSpec(
            "render-timeout", .value, argument: "SECONDS",
            help: ["longest a job may render (default 900); PostScript gets 3 s less"]
        ) { options, value throws(UsageError) in
            guard let seconds = Double(value), seconds >= 1, seconds <= 86_400 else {
                throw UsageError("--render-timeout needs seconds from 1 to 86400, not '\(value)'")
            }
            options.renderTimeout = seconds
        },
        OptionSpec(
            "scenario", .repeatable, argument: "FILE",
            help: ["play the faults of a scenario file (see docs/scenarios.md); repeatable"]
        ) { options, value in options.scenarios.append(value) },
        .choice(
            "speed", ["instant", "realistic"],
            help: ["print at once, or as fast as pages-per-minute says (default instant)"]
        ) { options, value in options.speed = value },
        .choice(
            "consumables", ["unlimited", "tracked"],
            help: ["whether printing empties trays and supplies (default unlimited)"]
        ) { options, value in options.consumables = value },
        .count(
            "max-jobs", in: 1...10_000_000,
            help: [
                "keep the newest N jobs (records and folders) per printer (default 1000); the oldest",
                "ended go first, and while N have not ended new jobs are refused",
            ]
        ) { options, count in options.maximumJobs = count },
        .count(
            "max-connections", in: 1...ConnectionLimits.largestCount,
            help: ["connections served at once on each port (default 2048); more get 503"]
        ) { options, count in options.maximumConnections = count },
        .count(
            "max-connections-per-address", in: 1...ConnectionLimits.largestCount,
            help: ["connections served at once from one client address (default 1024; an IPv6 /64 is one)"]
        ) { options, count in options.maximumConnectionsPerAddress = count },
        .count(
            "max-pages", in: 1...1_000_000,
            help: ["pages rendered for one job, its documents together (default 1000); more abort it"]
        ) { options, count in options.maximumPages = count },
        .size(
            "min-free-disk", example: "256M", zeroAllowed: true,
            help: [
                "free space the output folder's disk must keep (default 256M; 0 = none): below it",
                "new jobs are refused (spool-area-full) and a document arriving is dropped",
            ]
        ) { options, size in options.minimumFreeDisk = size },
        OptionSpec(
            "journal-size", .value, argument: "N|SIZE",
            help: [
                "requests the request journal keeps in memory (default 10000; 0 = no journal), or with",
                "a unit the bytes they may hold (64MiB, 500KB; default 64MiB); given twice, both",
            ]
        ) { options, value throws(UsageError) in
            switch JournalBound(value) {
            case .entries(let count)?: options.journalSize = count
            case .bytes(let bytes)?: options.journalBytes = bytes
            case nil:
                throw UsageError(
                    "--journal-size needs a number of requests, 0 or more, or a size such as 64MiB, not '\(value)'")
            }
        },
        .size(
            "journal-file-size", example: "16M", zeroAllowed: true,
            help: ["size at which OUTPUT/requests.jsonl is rotated (default 16M; 0 = no file)"]
        ) { options, size in options.journalFileSize = size },
        OptionSpec(
            "poll-interval", .value, argument: "SECONDS",
            help: ["a client polling faster than this, 5 times in a row, gets a finding (default 1; 0 = never)"]
        ) { options, value throws(UsageError) in
            guard let seconds = Double(value), seconds >= 0, seconds <= 3600 else {
                throw UsageError("--poll-interval needs seconds from 0 to 3600, not '\(value)'")
            }
            options.pollInterval = seconds
        },
        OptionSpec(
            "strict", .flag,
            help: [
                "refuse, as the strictest real printers do, what the default substitutes",
                "or ignores (unsupported values, wrong value tags, mislabelled documents)",
            ]
        ) { options, _ in options.strict = true },
        .choice(
            "on-restart", ["requeue", "abort"],
            help: [
                "jobs an earlier run accepted but did not finish: print them (default),",
                "or end them aborted",
            ]
        ) { options, value in options.onRestart = value },
        OptionSpec(
            "api-token", .value, argument: "TOKEN",
            help: ["accept API changes (POST, DELETE) from anywhere with this bearer token"]
        ) { options, value in options.apiToken = value },
        OptionSpec(
            "profile-dir", .repeatable, argument: "DIR",
            help: [
                "a folder whose profile and scenario files POST /api/v1/printers and Create-Printer",
                "may name (repeatable; otherwise they name shipped ones only)",
            ]
        ) { options, value in options.profileFolders.append(value) },
        OptionSpec(
            "allowed-host", .repeatable, argument: "NAME",
            help: [
                "also answer requests whose Host is NAME (repeatable; '*' for any; .DOMAIN for",
                "every name under DOMAIN): besides addresses, localhost, this machine's name",
                "and its own .local names (docs/security.md)",
            ]
        ) { options, value throws(UsageError) in
            guard !value.isEmpty, value != ".", !value.contains(where: { " /@:[]".contains($0) }) else {
                throw UsageError("--allowed-host needs a host name without port, not '\(value)'")
            }
            options.allowedHosts.append(value)
        },
        OptionSpec(
            "fetch-allow", .repeatable, argument: "HOST[:PORT]|CIDR",
            help: [
                "Print-URI and Send-URI may fetch from there (repeatable; '*' for anywhere): loopback",
                "beyond a --listen on loopback alone, or what --fetch-deny refuses (docs/security.md)",
            ]
        ) { options, value throws(UsageError) in
            options.fetchPolicy.allowed.append(try fetchRule(value, option: "fetch-allow"))
        },
        OptionSpec(
            "fetch-deny", .repeatable, argument: "HOST[:PORT]|CIDR",
            help: ["Print-URI and Send-URI never fetch from there (repeatable; '*' for anywhere else)"]
        ) { options, value throws(UsageError) in
            options.fetchPolicy.denied.append(try fetchRule(value, option: "fetch-deny"))
        },
        OptionSpec(
            "allow-origin", .repeatable, argument: "ORIGIN",
            help: [
                "accept API changes from web pages of ORIGIN, http(s)://host[:port] (repeatable;",
                "'*' for any): besides the printer's own pages",
            ]
        ) { options, value throws(UsageError) in
            guard value == OriginPolicy.anyOrigin || OriginPolicy.normalized(value) != nil else {
                throw UsageError("--allow-origin needs an origin such as http://localhost:3000, not '\(value)'")
            }
            options.allowedOrigins.append(value)
        },
        OptionSpec(
            "scan-source", .value, argument: "FILE|DIR",
            help: [
                "what scanners scan instead of the test chart: a PDF (a page an image), a PNG or",
                "JPEG, or a folder of them in name order (docs/scanning.md)",
            ]
        ) { options, value in options.scanSource = value },
        OptionSpec(
            "no-ocr", .flag, help: ["do not read the text of raster sides by OCR (GET /api/v1/jobs/ID/text)"]
        ) { options, _ in options.ocr = false },
        OptionSpec(
            "tls", .flag,
            help: [
                "also speak TLS (ipps://, HTTP Upgrade) on every port, with a self-signed",
                "certificate made at first start in OUTPUT/tls/",
            ]
        ) { options, _ throws(UsageError) in try options.security.parse("--tls", value: nil) },
        OptionSpec(
            "tls-cert", .value, argument: "FILE",
            help: ["TLS with this certificate (PEM, chain after it); with --tls-key"]
        ) { options, value throws(UsageError) in try options.security.parse("--tls-cert", value: value) },
        OptionSpec("tls-key", .value, argument: "FILE", help: ["the key of --tls-cert (PEM)"]) {
            options, value throws(UsageError) in try options.security.parse("--tls-key", value: value)
        },
        OptionSpec(
            "tls-only", .flag, help: ["TLS only: plain requests get 426, only _ipps._tcp is advertised"]
        ) { options, _ throws(UsageError) in try options.security.parse("--tls-only", value: nil) },
        OptionSpec(
            "user", .repeatable, argument: "NAME:PASSWORD",
            help: ["ask for HTTP Basic credentials (repeatable); needs --tls"]
        ) { options, value throws(UsageError) in try options.security.parse("--user", value: value) },
        OptionSpec(
            "users", .repeatable, argument: "FILE", help: ["the users from a file, one name:password per line"]
        ) { options, value throws(UsageError) in try options.security.parse("--users", value: value) },
        OptionSpec(
            "admin", .repeatable, argument: "NAME", help: ["a user who may administer the printer (repeatable)"]
        ) { options, value throws(UsageError) in try options.security.parse("--admin", value: value) },
        OptionSpec(
            "allow-plain-auth", .flag, help: ["accept credentials over plain HTTP too (clients under test)"]
        ) { options, _ throws(UsageError) in try options.security.parse("--allow-plain-auth", value: nil) },
        OptionSpec("verbose", aliases: ["-v"], .flag, help: ["log every request on stderr"]) { options, _ in
            options.verbose = true
        },
        OptionSpec("version", .flag, isSetting: false, help: ["print the version"]) { options, _ in
            options.command = .version
        },
    ]

    /// The options of the other commands, shown on their usage lines, and `--help`.
    static let commandOptions: [OptionSpec] =
        [
            // The help of a command option is not on the help text (its usage line says it); the manual pages show it.
            OptionSpec(
                "help", aliases: ["-h"], .flag, section: .command, isSetting: false,
                help: ["print the help text: every command's usage and the options"]
            ) { options, _ in
                options.command = .help
            },
            // Not on the help text: `vprinter help --man [COMMAND]` prints a manual page, `--out DIR` writes them all.
            OptionSpec(
                "man", .flag, section: .command, isSetting: false,
                help: [
                    "with help: print the manual page vprinter(1), or vprinter-COMMAND(1) for",
                    "help --man COMMAND; with --out DIR, write every page into DIR",
                ]
            ) { options, _ in options.manual = true },
            OptionSpec("out", .value, argument: "DIR|FILE", section: .command) { options, value in
                options.renderOutput = value
            },
            OptionSpec("show", .value, argument: "NAME|FILE", section: .command) { options, value in
                options.showProfile = value
            },
            OptionSpec("ippserver", .flag, section: .command) { options, _ in options.showAsAttributeFile = true },
        ]
        + ["sides", "number-up", "media", "copies", "color-mode", "scaling", "page-ranges", "orientation"].map {
            name in
            OptionSpec(name, .value, argument: "VALUE", section: .command) { options, value in
                options.ticket[name] = value
            }
        }
        + [
            OptionSpec("json", .flag, section: .command) { options, _ in options.json = true },
            OptionSpec("printer", .value, argument: "NAME", section: .command) { options, value in
                options.reportPrinter = value
            },
            OptionSpec("fail-on", .value, argument: "error|warning|info", section: .command) {
                options, value throws(UsageError) in
                guard let severity = ClientFinding.Severity(rawValue: value) else {
                    throw UsageError("--fail-on needs error, warning or info, not '\(value)'")
                }
                options.failOn = severity
            },
            OptionSpec("url", .value, argument: "URL", section: .command) { options, value in options.url = value },
            OptionSpec("count", aliases: ["--jobs"], .value, argument: "N", section: .command) {
                options, value throws(UsageError) in
                guard let count = Int(value), count > 0 else { throw UsageError("--count needs a positive number") }
                options.jobCount = count
            },
            OptionSpec("junit", .value, argument: "FILE", section: .command) { options, value in
                options.junitFile = value
            },
            OptionSpec("expect-jobs", .value, argument: "N", section: .command) { options, value throws(UsageError) in
                guard let count = Int(value), count >= 0 else {
                    throw UsageError("--expect-jobs needs a number of jobs, 0 or more, not '\(value)'")
                }
                options.expectedJobs = count
            },
            OptionSpec("timeout", .value, argument: "SECONDS", section: .command) {
                options, value throws(UsageError) in
                guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                    throw UsageError("--timeout needs seconds between 0 and 86400, not '\(value)'")
                }
                options.timeout = seconds
            },
            OptionSpec("min-psnr", .value, argument: "DB", section: .command) { options, value throws(UsageError) in
                guard let psnr = Double(value), psnr.isFinite, psnr >= 0 else {
                    throw UsageError("--min-psnr needs decibels such as 30, not '\(value)'")
                }
                options.minimumPSNR = psnr
            },
            OptionSpec("min-ssim", .value, argument: "X", section: .command) { options, value throws(UsageError) in
                guard let ssim = Double(value), ssim >= 0, ssim <= 1 else {
                    throw UsageError("--min-ssim needs a number from 0 to 1 such as 0.99, not '\(value)'")
                }
                options.minimumSSIM = ssim
            },
            OptionSpec("max-diff-pixels", .value, argument: "N", section: .command) {
                options, value throws(UsageError) in
                guard let pixels = Int(value), pixels >= 0 else {
                    throw UsageError("--max-diff-pixels needs a pixel count such as 0, not '\(value)'")
                }
                options.maximumDifferingPixels = pixels
            },
            OptionSpec("diff", .value, argument: "DIR", section: .command) { options, value in
                options.differenceFolder = value
            },
            OptionSpec("update", .flag, section: .command) { options, _ in options.update = true },
            OptionSpec("across-releases", .flag, section: .command) { options, _ in options.acrossReleases = true },
        ]

    /// The option a name or alias (`--output-dir`, `-o`) names.
    static func spec(named option: String) -> OptionSpec? {
        byName[option]
    }

    private static let byName: [String: OptionSpec] = {
        var table: [String: OptionSpec] = [:]
        for spec in all {
            table[spec.option] = spec
            for alias in spec.aliases { table[alias] = spec }
        }
        return table
    }()

    /// Where a description starts in the "options:" list.
    static let helpColumn = 32

    /// The "options:" list of `vprinter --help`: each option's names and value, its help from `helpColumn` on
    /// (on a line of its own after the names when they reach that column).
    static var optionsHelp: String {
        var lines: [String] = []
        let indent = String(repeating: " ", count: helpColumn)
        for spec in runOptions {
            let names = "  " + spec.option + (spec.argument.isEmpty ? "" : " " + spec.argument)
            guard let first = spec.help.first else { continue }
            if names.count < helpColumn {
                lines.append(names.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + first)
            } else {
                lines.append(names)
                lines.append(indent + first)
            }
            lines += spec.help.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The rule of `--fetch-allow` or `--fetch-deny`, or a usage error naming the option.
    static func fetchRule(_ value: String, option: String) throws(UsageError) -> FetchRule {
        guard let rule = FetchRule(value) else {
            throw UsageError(
                "--\(option) needs HOST, HOST:PORT, [IPv6]:PORT, a network such as 10.0.0.0/8, or '*', not '\(value)'")
        }
        return rule
    }
}
