import FoundationEssentials
import GtkProgressCore
import GtkProgressLoading
import GtkProgressFiles

/// `gtkprogress --dump URL|FILE`: the rendered text on stdout, links numbered, as `lynx -dump` prints it.
@MainActor
enum DumpCommand {
    static func run(target: String, throttle: Int64?, width: Int, styles: Bool = true) -> Int32 {
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
            let pageIsLocal = loaded.finalURL.isFileURL
            // The page is rendered here, on the main thread, which asks for the sheets it links as it goes.
            var sheets = PageStyleOptions(fetch: { url in
                MainActor.assumeIsolated { Self.sheet(url, pageIsLocal: pageIsLocal) }
            })
            sheets.keepsRulesUntilExit = true  // the process exits once the page is printed
            // Printed as the document is built: its finished lines go out and are let go (`PageDump.write`).
            let dump = PageDump.write(loaded, width: width, styles: styles ? sheets : .off,
                                      output: StandardStreams.output)
            for note in dump.notes { printError(note) }
            if let problem = dump.problem {
                printError(problem)
                return 1
            }
            return 0
        }
    }

    /// A linked stylesheet, fetched as the page was, with the page's policy: a web page's stylesheets come from
    /// the web only (never `file:`), a local page's from either; size-capped and under a deadline, so a sheet that
    /// never finishes holds the dump for `sheetDeadline` seconds at most.
    static func sheet(_ url: URL, pageIsLocal: Bool) -> Result<[UInt8], PageStyleOptions.SheetProblem> {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" || (scheme == "file" && pageIsLocal) else {
            return .failure(.init(L("%@ is not fetched for this page.", url.absoluteString)))
        }
        let options = LoaderOptions(connectTimeout: sheetDeadline, stallTimeout: sheetDeadline, deadline: sheetDeadline,
                                    maxDocumentBytes: PageStyleOptions.maximumSheetBytes)
        switch PageLoader.fetch(LoadRequest(url: url), options: options) {
        case .success(let loaded) where loaded.status < 400:
            // A sheet served as text (`text/css`) comes as its decoded text: the loaded page keeps the bytes of
            // binary content only.
            if case .binary = loaded.kind { return .success(loaded.body) }
            return .success(Array(loaded.text.utf8))
        case .success(let loaded):
            return .failure(.init("HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status)) from \(url.absoluteString)"))
        case .failure(let error):
            switch error.kind {
            case .timedOut, .stalled, .tooSlow:
                // The loader speaks of "the page"; here it is one of its sheets, and the page goes on without it.
                return .failure(.init(L("the style sheet %@ did not arrive within %@ seconds; the page is printed without it.",
                                        url.absoluteString, String(Int(sheetDeadline)))))
            default:
                return .failure(.init(L("the style sheet %@ was not read: %@", url.absoluteString, error.message)))
            }
        }
    }

    /// Seconds a stylesheet may take; the page is printed without it after that.
    static let sheetDeadline = 10.0
}
