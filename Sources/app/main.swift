import FoundationEssentials
import Glibc
import GtkProgressCore
import GtkProgressFiles

/// Entry point of `gtkprogress`. What needs neither a window nor the network runs here, with neither GTK nor
/// libcurl mapped into memory; for the rest this process becomes a companion by exec (see `Companion`).
func printError(_ message: String) {
    StandardStreams.error("gtkprogress: " + message + "\n")
}

Localization.start(directory: DataFiles.localeDirectory)
let arguments = Array(CommandLine.arguments.dropFirst())
let options: CommandLineOptions
switch CommandLineOptions.parse(arguments) {
case .success(let parsed): options = parsed
case .failure(let failure):
    printError(failure.description)
    exit(2)
}

func become(_ companion: Companion) -> Never {
    printError(companion.exec(arguments: arguments))
    exit(1)
}

switch options.action {
case .help:
    print(CommandLineOptions.localizedUsage)
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
    switch AddressInput.url(from: options.targets[0], workingDirectory: FileManager.default.currentDirectoryPath) {
    case .failure(let failure):
        printError(failure.description)
        exit(2)
    case .success(let url) where url.isFileURL && options.throttle == nil:
        exit(LocalDump.run(url, width: options.width, styles: !options.noCSS))
    case .success:
        // The network, or a paced read: the loader's job.
        become(.fetch)
    }
case .loadOnly:
    become(.fetch)
case .browse:
    become(.viewer)
}
