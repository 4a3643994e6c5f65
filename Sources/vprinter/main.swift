import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let options: CommandLineOptions
let config: ConfigFile?
do {
    (options, config) = try OptionSources.resolve(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    Console.log("error: \(error.message)")
    exit(2)
}

switch options.command {
case .help:
    guard !options.manual else { exit(ManPage.run(options: options)) }
    Console.out(CommandLineOptions.usage)
    exit(0)
case .version:
    Console.out("vprinter \(Version.string)")
    exit(0)
case .profiles:
    exit(
        options.showProfile.map { ProfilesCommand.show($0, asAttributeFile: options.showAsAttributeFile) }
            ?? ProfilesCommand.run())
case .clone:
    exit(CloneCommand(options: options).run())
case .jobs:
    exit(JobsCommand(options: options).run())
case .wait:
    exit(WaitCommand(options: options).run())
case .requests:
    exit(RequestsCommand(options: options).run())
case .verify:
    exit(VerifyCommand(options: options).run())
case .report:
    exit(ReportCommand(options: options).run())
case .run:
    exit(RunCommand(options: options, config: config).run())
case .exec:
    exit(ExecCommand(options: options, config: config).run())
case .render:
    exit(RenderCommand(options: options).run())
case .compare:
    exit(CompareCommand(options: options).run())
}
