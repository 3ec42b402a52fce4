import Foundation

/// The page as styled text in a read-only, word-wrapping text view, with clickable links
/// (the shape of GTK's `gtk-demo/hypertext.c`: one tag per link, button release → tags at the iter).
///
/// Large documents are inserted in slices from idle callbacks, so the first screen shows at once and the window
/// keeps repainting while the rest goes in; a new `show` drops the slices still pending.
public final class PageView {
    /// The widget to put in the window: a scrolled window holding the text view.
    public var root: Widget { scrolled }
    public let textView = TextView()
    private let scrolled = ScrolledWindow()

    /// A link was clicked (button 1, released over the same link, with no text selected).
    public var onLinkActivated: ((URL) -> Void)?
    /// The pointer entered a link (its URL) or left every link (nil).
    public var onLinkHover: ((URL?) -> Void)?

    private var document: Document?
    private var styleTags: [Int: [TextTag]] = [:]
    private var linkTags: [TextTag] = []
    private var sharedTags: [String: TextTag] = [:]
    private var hoveredLink: Int?
    /// Bumped by every `show`; pending slices of an older one stop.
    private var generation = 0
    private var nextRun = 0
    private var restoreTimer: MainLoopTimer?
    /// Whether the last `show` has been inserted completely.
    public private(set) var isComplete = true

    /// About this much text goes in per main-loop turn: a few milliseconds of work.
    private static let sliceBytes = 48 * 1024

    public init() {
        scrolled.add(textView)
        textView.setAccessible(name: "Page")
        textView.onMotion { [weak self] x, y in self?.pointerMoved(x: x, y: y); return false }
        textView.onLeave { [weak self] in self?.setHovered(nil) }
        textView.onButtonRelease { [weak self] x, y, button in
            guard let self, button == 1, !self.textView.hasSelection, let link = self.link(atX: x, y: y),
                  let url = self.document?.links[link] else { return false }
            self.onLinkActivated?(url)
            return false
        }
    }

    /// The text shown, for tests and the accessible name.
    public var text: String { textView.text }

    /// The reader's vertical scroll position, in pixels.
    public var verticalOffset: Double {
        get { scrolled.verticalOffset }
        set { scrolled.verticalOffset = newValue }
    }

    /// Drops on the text view go to the window's handler instead.
    public func refuseOwnDrops() { textView.refuseOwnDrops() }

    /// Shows `document` from the top, or at `offset` once enough of it is laid out.
    public func show(_ document: Document, scrollTo offset: Double?) {
        render(document)
        restore(offset ?? 0)
    }

    /// Shows a partly arrived page again, keeping the reader where they are.
    public func showProgressive(_ document: Document) {
        let offset = verticalOffset
        render(document)
        restore(offset)
    }

    /// Window coordinates of link `index`'s first character, for tests that click.
    public func linkLocation(index: Int) -> (x: Int, y: Int)? {
        textView.windowLocation(ofTag: "link:\(index)")
    }

    // MARK: Rendering

    private func render(_ document: Document) {
        generation += 1
        restoreTimer = nil
        for tag in linkTags { textView.removeTag(tag) }
        linkTags = []
        styleTags = [:]
        setHovered(nil)
        textView.clear()
        self.document = document
        nextRun = 0
        isComplete = false
        // The first slice goes in now so the first screen is there with the next paint.
        if insertSlice() { return }
        let current = generation
        func scheduleNext() {
            MainLoop.idle { [weak self] in
                guard let self, self.generation == current else { return }
                if !self.insertSlice() { scheduleNext() }
            }
        }
        scheduleNext()
    }

    /// Inserts the next runs; returns true when the document is complete.
    private func insertSlice() -> Bool {
        guard let document else { return true }
        let storage = document.storage
        var budget = Self.sliceBytes
        storage.bytes.withUnsafeBufferPointer { bytes in
            while nextRun < storage.runCount, budget > 0 {
                let range = storage.range(ofRun: nextRun)
                let styleIndex = Int(storage.runStyles[nextRun])
                let tags = tags(for: styleIndex, style: storage.styles[styleIndex])
                textView.appendUTF8(UnsafeBufferPointer(rebasing: bytes[range]), tags: tags)
                budget -= range.count + 64
                nextRun += 1
            }
        }
        isComplete = nextRun >= storage.runCount
        return isComplete
    }

    /// Scrolls to `offset` as soon as the text view has laid out that far (it lays out in idle time).
    private func restore(_ offset: Double) {
        verticalOffset = 0
        guard offset > 0 else { return }
        var tries = 0
        restoreTimer = MainLoopTimer(milliseconds: 15) { [weak self] in
            guard let self else { return false }
            tries += 1
            let range = self.scrolled.verticalRange
            self.verticalOffset = min(offset, max(range.upper - range.page, 0))
            let reached = abs(self.verticalOffset - offset) < 1
            if reached && self.isComplete || tries > 200 { self.restoreTimer = nil; return false }
            return true
        }
    }

    private func tags(for styleIndex: Int, style: TextStyle) -> [TextTag] {
        if let tags = styleTags[styleIndex] { return tags }
        var tags: [TextTag] = []
        if style.heading > 0 { tags.append(shared("h\(min(style.heading, 6))")) }
        if style.bold { tags.append(shared("bold")) }
        if style.italic { tags.append(shared("italic")) }
        if style.monospace { tags.append(shared("mono")) }
        if style.preformatted { tags.append(shared("pre")) }
        if style.indent > 0 { tags.append(shared("indent\(min(style.indent, 12))")) }
        if let link = style.link {
            tags.append(shared("link"))
            let tag = textView.createTag("link:\(link)")
            linkTags.append(tag)
            tags.append(tag)
        }
        styleTags[styleIndex] = tags
        return tags
    }

    /// The look of each style, made once per view.
    private func shared(_ name: String) -> TextTag {
        if let tag = sharedTags[name] { return tag }
        let tag = textView.createTag(name)
        switch name {
        case let h where h.hasPrefix("h"):
            let level = Int(h.dropFirst()) ?? 1
            let scales = [2.0, 1.6, 1.3, 1.15, 1.0, 0.9]
            tag.set("scale", double: scales[level - 1])
            tag.set("weight", int: 700)
            tag.set("pixels-above-lines", int: 6)
        case "bold": tag.set("weight", int: 700)
        case "italic": tag.set("style", int: 2) // PANGO_STYLE_ITALIC
        case "mono": tag.set("family", string: "monospace")
        case "pre": tag.set("wrap-mode", int: 0) // GTK_WRAP_NONE: preformatted lines keep their shape
        case let i where i.hasPrefix("indent"):
            tag.set("left-margin", int: 16 + 24 * (Int(i.dropFirst(6)) ?? 1))
        case "link":
            tag.set("underline", int: 1) // PANGO_UNDERLINE_SINGLE
            let color = textView.themeColor("link_color") ?? RGBA(red: 0x1a / 255.0, green: 0x5f / 255.0, blue: 0xb4 / 255.0)
            tag.set("foreground", string: String(format: "#%02x%02x%02x", Int(color.red * 255),
                                                 Int(color.green * 255), Int(color.blue * 255)))
        default: break
        }
        sharedTags[name] = tag
        return tag
    }

    // MARK: Pointer

    private func link(atX x: Double, y: Double) -> Int? {
        for name in textView.tagNames(atWindowX: x, y: y) where name.hasPrefix("link:") {
            return Int(name.dropFirst(5))
        }
        return nil
    }

    private func pointerMoved(x: Double, y: Double) {
        setHovered(link(atX: x, y: y))
    }

    private func setHovered(_ link: Int?) {
        guard link != hoveredLink else { return }
        hoveredLink = link
        textView.setPointer(hand: link != nil)
        onLinkHover?(link.flatMap { document?.links.indices.contains($0) == true ? document?.links[$0] : nil })
    }
}
