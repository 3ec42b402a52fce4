import FoundationEssentials

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
        return (shown.document.dumpText(width: width), problem(loaded), shown.document.styleNotes)
    }

    /// `--dump` of a page read from disk (status 200, no `Content-Type`), written to `output` as it is read: what
    /// `render` prints, byte for byte. A page whose bytes are already its text (UTF-8, nothing else declared) is
    /// parsed from them, without a decoded copy beside them; any other page is decoded first (`write(_:)`).
    /// Returns the notes for standard error (`Document.styleNotes`). `stretchBytes`: about how much is handed to
    /// `output` at a time.
    package static func write(_ body: [UInt8], url: URL, width: Int = Document.defaultLayoutWidth,
                              styles: PageStyleOptions? = nil, stretchBytes: Int = 1 << 16,
                              output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> [String] {
        guard ContentSniffer.kind(contentType: nil, url: url, bytes: body[...]) == .html,
              CharsetDecoder.isUnchangedUTF8(body, contentType: nil, isHTML: true) else {
            return write(LoadedPage(decoding: body, finalURL: url, status: 200, contentType: nil), width: width,
                         styles: styles, stretchBytes: stretchBytes, output: output).notes
        }
        return body.withUnsafeBufferPointer {
            stream(html: $0, url: url, width: width, styles: styles, stretchBytes: stretchBytes, output: output)
        }
    }

    /// `--dump` of a loaded page, written to `output` as the document is built: what `render` prints, byte for
    /// byte, with its problem and notes. An HTML page's finished lines are printed and let go while the rest is
    /// built (`DumpOutput`); text and binary content go through `render`.
    package static func write(_ loaded: LoadedPage, width: Int = Document.defaultLayoutWidth,
                              styles: PageStyleOptions? = nil, stretchBytes: Int = 1 << 16,
                              output: @escaping (UnsafeBufferPointer<UInt8>) -> Void)
        -> (problem: String?, notes: [String]) {
        guard loaded.kind == .html else {
            let dump = render(loaded, width: width, styles: styles)
            var text = dump.text
            text.withUTF8 { output($0) }
            return (dump.problem, dump.notes)
        }
        var text = loaded.text
        let notes = text.withUTF8 {
            stream(html: $0, url: loaded.finalURL, width: width, styles: styles, stretchBytes: stretchBytes,
                   output: output)
        }
        return (problem(loaded), notes)
    }

    /// The problem `render` reports: an error status, the page printed all the same.
    private static func problem(_ loaded: LoadedPage) -> String? {
        loaded.status >= 400
            ? "HTTP \(loaded.status) \(HTTPStatus.reason(loaded.status)) from \(loaded.finalURL.absoluteString)" : nil
    }

    /// Builds the document from UTF-8 `html`, handing its finished lines to `output` as it goes.
    private static func stream(html: UnsafeBufferPointer<UInt8>, url: URL, width: Int, styles: PageStyleOptions?,
                               stretchBytes: Int, output: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> [String] {
        var options = styles ?? PageStyleOptions()
        options.media = CSSMedia.forColumns(width)
        options.colours = false
        let dump = DumpOutput(width: width, stretchBytes: stretchBytes, write: output)
        let document = DocumentBuilder.build(source: html, baseURL: url, layoutWidth: width, styles: options,
                                             textMarks: true, dump: dump)
        dump.finish(document)
        return document.styleNotes
    }
}
