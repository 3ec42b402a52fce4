import Foundation
import GtkProgressCore
import GtkProgressLoading

/// `gtkprogress --dump URL|FILE`: the rendered text on stdout, links numbered, as `lynx -dump` prints it.
enum DumpCommand {
    static func run(target: String, throttle: Int64?) -> Int32 {
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
            let shown = ShownPage(loaded: loaded)
            FileHandle.standardOutput.write(Data(shown.document.dumpText().utf8))
            if loaded.status >= 400 {
                printError("HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status)) from \(loaded.finalURL.absoluteString)")
                return 1
            }
            return 0
        }
    }
}
