import FoundationEssentials

/// Pages the viewer writes itself: the error page and the page for content it does not show as text.
package enum GeneratedPages {
    /// As the UIWebView analysis (§3.4) asks: name the URL, say what went wrong in plain words, offer a retry.
    package static func errorHTML(url: URL, message: String) -> String {
        let shown = escape(AddressInput.displayString(url))
        return """
        <!DOCTYPE html><html><head><title>\(escape(L("Problem loading page")))</title></head><body>
        <h1>\(escape(L("This page could not be loaded")))</h1>
        <p><strong>\(shown)</strong></p>
        <p>\(escape(message))</p>
        <p><a href="\(escape(url.absoluteString))">\(escape(L("Try again")))</a> \(escape(L("(or press F5). Back (Alt+Left) returns to the page before.")))</p>
        </body></html>
        """
    }

    package static func binaryHTML(url: URL, mimeType: String, byteCount: Int) -> String {
        """
        <!DOCTYPE html><html><head><title>\(escape(url.lastPathComponent.isEmpty ? mimeType : url.lastPathComponent))</title></head><body>
        <h1>\(escape(L("This file is not a page")))</h1>
        <p><strong>\(escape(AddressInput.displayString(url)))</strong></p>
        <p>\(escape(L("It is %@ content, %@, which the viewer does not show as text.", mimeType, formatBytes(byteCount))))</p>
        <p>\(escape(L("Press Ctrl+S to save it to a file.")))</p>
        </body></html>
        """
    }

    /// One way of writing sizes everywhere a person reads them (`ByteCount.size`): "9.0 MB", never "9 MB" for
    /// 9.04 MB.
    package static func formatBytes(_ count: Int) -> String { ByteCount.size(Int64(count)) }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
