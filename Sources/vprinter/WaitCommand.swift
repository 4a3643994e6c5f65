/// `vprinter wait --url URL --jobs N [--timeout S]`: blocks until N jobs have ended on a running printer.
///
/// It asks the printer's JSON API (`GET /api/v1/wait`), which lands with the test API (issue 5); until then
/// it says so and exits 1 rather than pretend.
struct WaitCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        Console.log("error: vprinter wait is not available in this version; poll GET /api/v1/jobs instead")
        return 1
    }
}
