/// `--dump`: a loaded page as text for a terminal or a pipe, links numbered as `lynx -dump` prints them.
package enum PageDump {
    /// The text for standard output, and a problem for standard error when the server answered with an error
    /// status (the page is printed all the same, as browsers show error pages). Prose wraps at `width` columns
    /// and tables are fitted to it.
    package static func render(_ loaded: LoadedPage, width: Int = Document.defaultLayoutWidth) -> (text: String, problem: String?) {
        let shown = ShownPage(loaded: loaded, layoutWidth: width, textMarks: true)
        let problem = loaded.status >= 400
            ? "HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status)) from \(loaded.finalURL.absoluteString)" : nil
        return (shown.document.dumpText(width: width), problem)
    }
}
