import VirtualPrinter

/// `vprinter profiles`: the shipped profile names, one per line, with their make and model.
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
                Console.out("\(name)\t\(profile.makeAndModel)")
            } else {
                Console.out("\(name)\t(unreadable: run vprinter --profile \(name) for details)")
            }
        }
        return 0
    }
}
