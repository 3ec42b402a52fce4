import FoundationEssentials
import Glibc
import GtkProgressFiles
import GtkProgress

/// Entry point of `gtkprogress-viewer`, the window `gtkprogress` execs when no command-line-only option is given.
func printError(_ message: String) {
    StandardStreams.error("gtkprogress: " + message + "\n")
}

Localization.start(directory: DataFiles.localeDirectory)
switch CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let options):
    Application.connectToSessionBusEarly()
    Application.returnLargeBlocksToTheSystem()
    exit(ViewerApp(options: options).run())
case .failure(let failure):
    printError(failure.description)
    exit(2)
}
