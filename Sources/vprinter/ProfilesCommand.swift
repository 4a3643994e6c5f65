import IPP
import PrinterCore
import PrinterHTTP
import Profiles
import Scanner
import VirtualPrinterKit

/// `vprinter profiles`: the shipped profile names, one per line, with their make and model; with `--show`, the
/// attributes and TXT record one profile gives.
enum ProfilesCommand {
    static func run() -> Int32 {
        let directories = PrinterProfile.searchDirectories()
        let names = PrinterProfile.shippedNames(in: directories)
        guard !names.isEmpty else {
            Console.log("error: no profiles found (looked in \(directories.joined(separator: ", ")))")
            return 1
        }
        for name in names {
            if let profile = try? PrinterProfile.load(nameOrPath: name, searchDirectories: directories) {
                let scanOnly = profile.features.scanner?.scanOnly == true
                Console.out("\(name)\t\(profile.makeAndModel)\(scanOnly ? " (scanner only)" : "")")
            } else {
                Console.out("\(name)\t(unreadable: run vprinter --profile \(name) for details)")
            }
        }
        return 0
    }

    /// The host and port the shown URIs and `adminurl` name (no printer listens there).
    static let shownHost = "localhost"
    static let shownPort: UInt16 = CommandLineOptions.defaultPort

    /// `vprinter profiles --show NAME|FILE`: what Get-Printer-Attributes `all,media-col-database` answers, in
    /// ipptool's text form (or, with `--ippserver`, as an attribute file), then the `_ipp._tcp` TXT record, from a
    /// printer built for the profile that serves nobody. State and times are those of a printer just started. A scanner
    /// alone (`scanOnly`) shows its eSCL ScannerCapabilities instead.
    static func show(_ nameOrPath: String, asAttributeFile: Bool) -> Int32 {
        let profile: PrinterProfile
        do {
            profile = try PrinterProfile.load(
                nameOrPath: nameOrPath, searchDirectories: PrinterProfile.searchDirectories())
        } catch {
            Console.log("error: \(error)")
            return 1
        }
        if let scanner = profile.features.scanner, scanner.scanOnly {
            // A scanner alone answers no IPP: what it says of itself is its eSCL capabilities.
            let capabilities = ScannerDevice.capabilities(
                of: scanner, makeAndModel: profile.makeAndModel,
                uuid: PrinterConfiguration.uuid(forName: profile.name))
            Console.out("# \(profile.name): a scanner only (no IPP); eSCL ScannerCapabilities")
            Console.out(capabilities.xml(adminURI: "http://\(shownHost):\(shownPort)/ipp/print/"), terminator: "")
            return 0
        }
        let printer = Printer.offline(profile: profile, name: profile.name)
        let attributes = printer.answerPrinterAttributes(host: shownHost, port: shownPort)
        if asAttributeFile {
            Console.out(
                "# \(profile.name): the printer attributes of vprinter --profile \(nameOrPath), as ipptool --ippserver writes them"
            )
            Console.out(IPPServerAttributeFile.write(attributes), terminator: "")
            return 0
        }
        Console.out("# \(profile.name): Get-Printer-Attributes all,media-col-database (ipptool's text form)")
        for attribute in attributes { Console.out(IPPText.line(attribute)) }
        Console.out("")
        Console.out("# \(profile.name): DNS-SD _ipp._tcp TXT record")
        let txt = printer.advertisement.txtRecord(host: shownHost, port: shownPort, overrides: profile.txt)
        for entry in txt.entries { Console.out("\(entry.key)=\(entry.value)") }
        return 0
    }
}
