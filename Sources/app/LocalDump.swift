import FoundationEssentials
import GtkProgressCore
import GtkProgressFiles

/// `gtkprogress --dump FILE`: a local file read, rendered and printed, with the loader's checks and messages but
/// without the loader, so a page on disk costs what w3m or lynx costs.
enum LocalDump {
    static func run(_ url: URL, width: Int?) -> Int32 {
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
        StandardStreams.output(PageDump.render(loaded, width: TerminalSize.dumpWidth(option: width)).text)
        return 0
    }
}
