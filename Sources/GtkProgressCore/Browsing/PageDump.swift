/// `--dump`: a loaded page as text for a terminal or a pipe, links numbered as `lynx -dump` prints them.
package enum PageDump {
    /// The text for standard output, and a problem for standard error when the server answered with an error
    /// status (the page is printed all the same, as browsers show error pages). Prose wraps at `width` columns
    /// and tables are fitted to it.
    /// What the page's stylesheets lost to their bounds goes with the problems (`Document.styleNotes`).
    package static func render(_ loaded: LoadedPage, width: Int = Document.defaultLayoutWidth,
                               styles: PageStyleOptions? = nil) -> (text: String, problem: String?, notes: [String]) {
        var options = styles ?? PageStyleOptions()
        options.media = CSSMedia.forColumns(width)
        options.colours = false
        let shown = ShownPage(loaded: loaded, layoutWidth: width, styles: options, textMarks: true)
        let problem = loaded.status >= 400
            ? "HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status)) from \(loaded.finalURL.absoluteString)" : nil
        return (shown.document.dumpText(width: width), problem, shown.document.styleNotes)
    }
}
