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
        if LocalFolder.isFolder(url) {
            let loaded: LoadedPage
            switch LocalFolder.listing(url) {
            case .failure(let error):
                printError(error.message)
                return 1
            case .success(let html):
                loaded = LoadedPage(decoding: Array(html.utf8), finalURL: url, status: 200,
                                    contentType: "text/html; charset=utf-8")
            }
            _ = PageDump.write(loaded, width: TerminalSize.dumpWidth(option: width), output: StandardStreams.output)
            return 0
        }
        let notes: [String]
        switch LocalFile.read(url, maxBytes: limits.maxDocumentBytes) {
        case .failure(let error):
            printError(error.message)
            return 1
        case .success(let bytes):
            // Printed as it is read: a page in UTF-8 is parsed from these bytes, and its lines go out as they are
            // finished (`PageDump.write`).
            var options = PageStyleOptions(fetch: localSheet)
            options.keepsRulesUntilExit = true  // the process exits once the page is printed
            notes = PageDump.write(bytes, url: url, width: TerminalSize.dumpWidth(option: width),
                                   styles: styles ? options : .off,
                                   output: StandardStreams.output)
        }
        for note in notes { printError(note) }
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
