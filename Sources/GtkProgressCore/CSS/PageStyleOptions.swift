import FoundationEssentials

/// How a page's author styles are read: whether at all (`--no-css`, the window's "Page style" toggle), for which
/// screen, and where linked and imported stylesheets come from.
package struct PageStyleOptions: Sendable {
    /// Author styles on; off shows the page as Firefox's View → Page Style → No Style does.
    package var enabled: Bool
    package var media: CSSMedia
    /// Stylesheets already fetched, by address (the window fetches them with the page's images).
    package var sheets: [URL: [UInt8]]
    /// Reads a stylesheet not in `sheets` (the dump, which may block: it has nothing else to do): its bytes, or a
    /// message saying why not. Called off the main loop, while the document is built.
    package var fetch: (@Sendable (URL) -> Result<[UInt8], SheetProblem>)?
    /// Whether `color` and `background-color` are read. `--dump` prints no colours, so its sheets leave those
    /// declarations out as they leave out margins: a rule of only colours is not kept, matched or cascaded.
    package var colours = true
    /// Whether the page's rule set is left to the end of the process instead of freed once the document is built:
    /// for a program that exits right after printing one page (`--dump`), as a compiler leaves its tables for the
    /// exit to reclaim (Clang's `-disable-free`). Freeing a rule set is a release of every selector, declaration and
    /// list in it; the memory is in use until then anyway.
    package var keepsRulesUntilExit = false

    /// Why a stylesheet was not read, in words for the status line or stderr.
    package struct SheetProblem: Error, Sendable {
        package var message: String
        package init(_ message: String) { self.message = message }
    }

    package init(enabled: Bool = true, media: CSSMedia = CSSMedia.forColumns(Document.defaultLayoutWidth),
                 sheets: [URL: [UInt8]] = [:], fetch: (@Sendable (URL) -> Result<[UInt8], SheetProblem>)? = nil) {
        self.enabled = enabled
        self.media = media
        self.sheets = sheets
        self.fetch = fetch
    }

    /// No author styles.
    package static let off = PageStyleOptions(enabled: false)

    /// The largest stylesheet: a real one is under 1 MB (Node's docs: 40 KB, Sphinx's: 20 KB). A linked sheet
    /// past it is refused by the fetch (as an image past its cap is); a `<style>` past it is cut there, so a 10 MB
    /// sheet costs what 2 MB costs.
    package static let maximumSheetBytes = 2 << 20
    /// All of a page's stylesheets together.
    package static let maximumTotalBytes = 8 << 20
    /// `@import` chains deeper than this are not followed (Blink allows no limit, but loops are refused anyway).
    package static let maximumImportDepth = 4
    /// Linked and imported sheets a page may have.
    package static let maximumSheets = 64
}
