import Foundation
import GtkProgressCore
import GtkProgressLoading

/// Entry point of `gtkprogress`: the options that need no display run here, without GTK; a window is the
/// viewer's job, which this process becomes by exec (see `ViewerExecutable`).
func printError(_ message: String) {
    FileHandle.standardError.write(Data(("gtkprogress: " + message + "\n").utf8))
}

let options: CommandLineOptions
switch CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let failure):
    printError(failure.description)
    exit(2)
}

switch options.action {
case .help:
    print(CommandLineOptions.usage)
    exit(0)
case .version:
    print(CommandLineOptions.version)
    exit(0)
case .printCurve(let name):
    do {
        let curve = try ProgressCurve.load(nameOrPath: name)
        print(CurveTimeline.render(curve: curve, finishAt: options.finishAt, until: options.until,
                                   frames: options.frames), terminator: "")
        exit(0)
    } catch {
        printError("\(error)")
        exit(1)
    }
case .dump:
    exit(DumpCommand.run(target: options.targets[0], throttle: options.throttle))
case .loadOnly:
    exit(LoadOnlyCommand.run(target: options.targets[0], throttle: options.throttle))
case .browse:
    exit(ViewerExecutable.exec(arguments: Array(CommandLine.arguments.dropFirst())))
}
