import FoundationEssentials
import GtkProgressCore
import GtkProgressLoading
import GtkProgressFiles

/// `gtkprogress --dump URL|FILE`: the rendered text on stdout, links numbered, as `lynx -dump` prints it.
enum DumpCommand {
    static func run(target: String, throttle: Int64?, width: Int) -> Int32 {
        let url: URL
        switch AddressInput.url(from: target, workingDirectory: FileManager.default.currentDirectoryPath) {
        case .success(let parsed): url = parsed
        case .failure(let failure):
            printError(failure.description)
            return 2
        }
        var loaderOptions = LoaderOptions()
        loaderOptions.throttleBytesPerSecond = throttle
        if let note = loaderOptions.throttleNote(for: url) { printError(note) }
        switch PageLoader.fetch(LoadRequest(url: url), options: loaderOptions) {
        case .failure(let error):
            printError(error.message)
            return 1
        case .success(let loaded):
            let dump = PageDump.render(loaded, width: width)
            StandardStreams.output(dump.text)
            if let problem = dump.problem {
                printError(problem)
                return 1
            }
            return 0
        }
    }
}
