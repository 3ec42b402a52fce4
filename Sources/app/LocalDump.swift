import FoundationEssentials
import GtkProgressCore
import GtkProgressFiles

/// `gtkprogress --dump FILE`: a local file read, rendered and printed, with the loader's checks and messages but
/// without the loader, so a page on disk costs what w3m or lynx costs.
enum LocalDump {
    static func run(_ url: URL, width: Int?, styles: Bool = true) -> Int32 {
        let limits = LoaderOptions()
        if let refusal = LocalFile.refusal(url, maxBytes: limits.maxDocumentBytes) {
            printError(refusal.message)
            return 1
        }
        let loaded: LoadedPage
        if LocalFolder.isFolder(url) {
            switch LocalFolder.listing(url) {
            case .failure(let error):
                printError(error.message)
                return 1
            case .success(let html):
                loaded = LoadedPage(decoding: Array(html.utf8), finalURL: url, status: 200,
                                    contentType: "text/html; charset=utf-8")
            }
            StandardStreams.output(PageDump.render(loaded, width: TerminalSize.dumpWidth(option: width)).text)
            return 0
        }
        switch LocalFile.read(url, maxBytes: limits.maxDocumentBytes) {
        case .failure(let error):
            printError(error.message)
            return 1
        case .success(let bytes):
            // The bytes end here: a page is held as its decoded text only while it is parsed.
            loaded = LoadedPage(decoding: bytes, finalURL: url, status: 200, contentType: nil)
        }
        var options = PageStyleOptions(fetch: localSheet)
        options.keepsRulesUntilExit = true  // the process exits once the page is printed
        let dump = PageDump.render(loaded, width: TerminalSize.dumpWidth(option: width),
                                   styles: styles ? options : .off)
        StandardStreams.output(dump.text)
        for note in dump.notes { printError(note) }
        return 0
    }

    /// A local page's linked stylesheets: local files only (this program does not touch the network), each read by
    /// the one bounded reader.
    @Sendable static func localSheet(_ url: URL) -> Result<[UInt8], PageStyleOptions.SheetProblem> {
        guard url.isFileURL else {
            return .failure(.init(L("%@ is not a local file and was not fetched.", url.absoluteString)))
        }
        return LocalFile.read(url, maxBytes: PageStyleOptions.maximumSheetBytes).mapError { .init($0.message) }
    }
}
