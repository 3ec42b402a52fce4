import FoundationEssentials
import Glibc
import GtkProgressCore
import GtkProgressFiles
import GtkProgressLoading

/// Entry point of `gtkprogress-fetch`, which `gtkprogress` becomes for `--dump URL` and `--load-only`: the
/// loader, without GTK.
func printError(_ message: String) {
    StandardStreams.error("gtkprogress: " + message + "\n")
}

Localization.start(directory: DataFiles.localeDirectory)
switch CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let failure):
    printError(failure.description)
    exit(2)
case .success(let options) where options.action == .dump:
    exit(DumpCommand.run(target: options.targets[0], throttle: options.throttle,
                         width: TerminalSize.dumpWidth(option: options.width), styles: !options.noCSS))
case .success(let options) where options.action == .loadOnly:
    exit(LoadOnlyCommand.run(target: options.targets[0], throttle: options.throttle))
case .success:
    printError(L("gtkprogress-fetch only runs --dump and --load-only; start gtkprogress instead."))
    exit(2)
}
