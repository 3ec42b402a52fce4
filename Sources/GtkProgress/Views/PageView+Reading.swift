import FoundationEssentials

/// Reading the page without the mouse, and what the mouse offers besides a click: links reached with Tab and
/// followed with Return (as in Firefox, w3m and lynx), the page scrolled by the keys readers expect, the link's
/// context menu, middle-click, the text size, and link colours from the theme.
extension PageView {
    func connectReading() {
        // Entering the page with Tab lands on the first link in view, with Shift+Tab on the last one; Tab within
        // the page is the window's key (`BrowserCommand.nextLink`), which lets the focus leave after the last link.
        textView.onFocusMove { [weak self] direction in
            guard let self, !self.textView.hasFocus else { return false }
            self.textView.grabFocus()
            if direction != .other { self.focusLink(forward: direction == .forward) }
            return true
        }
        textView.onFocusChange { [weak self] _ in self?.textView.queueDraw() }
        textView.onPaintAbove { [weak self] cr in
            self?.paintTableRules(on: cr)
            self?.paintFocusRing(on: cr)
        }
        textView.onButtonPress { [weak self] press in self?.buttonPressed(press) ?? false }
        textView.onPopupMenuKey { [weak self] in
            guard let self else { return false }
            let range = self.focusedRange.map { self.linkRanges[$0] }
            let rect = range.flatMap { self.textView.rectangles(fromCharacter: $0.start, to: $0.end).first }
            self.showContextMenu(link: range?.link, at: rect ?? Rect(x: 16, y: 16, width: 1, height: 1))
            return true
        }
        var steps = 0.0
        textView.onControlScroll { [weak self] delta in
            // Touchpads send fractions of a step: a whole step of them changes the size once.
            steps += delta
            while abs(steps) >= 1 {
                self?.onZoomStep?(steps < 0 ? 1 : -1)
                steps -= steps < 0 ? -1 : 1
            }
            return true
        }
        textView.onStyleUpdated { [weak self] in
            self?.applyLinkColors()
            self?.applyCodeColors()
            self?.applyPageColors()
            // The text size is CSS on the view: its new font arrives with the style.
            self?.fitMeasure()
        }
    }

    // MARK: Keyboard focus on links

    /// The URL of the link that has the keyboard focus.
    package var focusedLinkURL: URL? { focusedRange.flatMap { linkRanges.indices.contains($0) ? url(ofLink: linkRanges[$0].link) : nil } }

    /// Gives the page the keyboard focus (arrows, Page Down, Space and Tab then act on it).
    package func focus() { textView.grabFocus() }

    package var hasFocus: Bool { textView.hasFocus }

    /// Moves the keyboard focus to the next (or previous) link. With no link focused yet it starts from the
    /// screen: the first link in view, or the last one going backwards. Returns false when there is no such
    /// link, so the focus may leave the page.
    @discardableResult
    package func focusLink(forward: Bool) -> Bool {
        if !forms.offsets.isEmpty {
            // Controls are stops too, in page order with the links (`moveFocus`).
            let start: Int
            if let current = focusedRange, linkRanges.indices.contains(current) {
                start = linkRanges[current].start
            } else {
                let visible = textView.visibleCharacters
                start = forward ? visible.lowerBound - 1 : visible.upperBound
            }
            return moveFocus(forward: forward, from: start)
        }
        let target: Int
        if let current = focusedRange, linkRanges.indices.contains(current) {
            target = forward ? current + 1 : current - 1
        } else {
            let visible = textView.visibleCharacters
            target = forward ? linkRanges.firstIndex { $0.end > visible.lowerBound } ?? linkRanges.count
                             : linkRanges.lastIndex { $0.start < visible.upperBound } ?? -1
        }
        guard linkRanges.indices.contains(target) else {
            setFocusedRange(nil)
            return false
        }
        setFocusedRange(target)
        return true
    }

    /// Follows the focused link (Return), in a new window with `newWindow`. False when no link has the focus.
    @discardableResult
    package func activateFocusedLink(newWindow: Bool) -> Bool {
        guard let url = focusedLinkURL else { return false }
        if newWindow { openInNewWindow(url) } else { onLinkActivated?(url) }
        return true
    }

    func openInNewWindow(_ url: URL) {
        if let open = onLinkOpenInNewWindow { open(url) } else { onLinkActivated?(url) }
    }

    /// The links changed (a new page, or a partial page replaced): no link has the focus.
    func linksReplaced() {
        guard focusedRange != nil else { return }
        focusedRange = nil
        textView.queueDraw()
        onLinkFocused?(nil)
    }

    /// The caret moves to the link too: GTK's accessible reports the move to AT-SPI (`text-caret-moved`), so a
    /// screen reader reads the link's text; the page's accessible description names the link and where it leads
    /// (a property change AT-SPI announces for the focused object), and the status line shows the address.
    func setFocusedRange(_ index: Int?) {
        focusedRange = index
        textView.queueDraw()
        guard let index else {
            textView.setAccessibleDescription("")
            onLinkFocused?(nil)
            return
        }
        let range = linkRanges[index]
        let target = url(ofLink: range.link)
        textView.placeCursor(atCharacter: range.start)
        textView.scrollIntoView(character: range.start, margin: 0.1)
        let name = readableText(fromCharacter: range.start, to: range.end).trimmed()
        textView.setAccessibleDescription(L("Link: %@, %@", name, target.map(BrowserWindow.statusString) ?? ""))
        onLinkFocused?(target)
    }

    /// A 2 px ring in the link colour around each line of the focused link, while the page has the focus.
    private func paintFocusRing(on cr: CairoContext) {
        guard textView.hasFocus, let index = focusedRange, linkRanges.indices.contains(index) else { return }
        let range = linkRanges[index]
        let color = textView.readableLinkColors.link
        cr.setColor(color)
        for rect in textView.rectangles(fromCharacter: range.start, to: range.end) {
            cr.strokeRectangle(x: rect.x - 2, y: rect.y - 1, width: rect.width + 4, height: rect.height + 2, lineWidth: 2)
        }
    }

    // MARK: Scrolling keys

    /// Space and Shift+Space: a screenful down or up, as Page Down and Page Up do in the text view.
    package func scrollByPage(down: Bool) {
        let range = scrolledWindow.verticalRange
        // A line of the last screen stays in view, so the reader keeps their place.
        let step = max(range.page - 40, range.page * 0.5)
        verticalOffset = min(max(verticalOffset + (down ? step : -step), range.lower), max(range.upper - range.page, 0))
    }

    /// Home and End: the top and the bottom of the page. The bottom of a page still being laid out is found
    /// through a mark, which GTK scrolls to once the lines above it are measured.
    package func scrollToEnd(bottom: Bool) {
        if bottom { textView.scroll(toCharacter: textView.characterCount) } else { scroll(toOffset: 0) }
    }

    // MARK: Mouse

    private func buttonPressed(_ press: ButtonPress) -> Bool {
        switch press.button {
        case 3 where !press.isRepeat:
            let link = link(atX: press.x, y: press.y)
            showContextMenu(link: link, at: nil)
            return true
        case 2:
            // The middle button opens links (on release); it pastes nothing into a page.
            return link(atX: press.x, y: press.y) != nil
        case 1:
            // A click puts the reader's place where they clicked: the next Tab starts from the screen again.
            if focusedRange != nil { setFocusedRange(nil) }
            return false
        default:
            return false
        }
    }

    /// The page's menu in place of the text view's editing one (Cut, Paste, Insert Emoji mean nothing here):
    /// for a link, open it here or in a new window, or copy its address; for selected text, copy it; elsewhere,
    /// also whether the window shows images.
    func showContextMenu(link: Int?, at rect: Rect?) {
        contextMenu?.destroy()
        let menu = Menu()
        if let url = url(ofLink: link) {
            menu.addItem(L("_Open Link")) { [weak self] in self?.onLinkActivated?(url) }
            menu.addItem(L("Open Link in New _Window")) { [weak self] in self?.openInNewWindow(url) }
            menu.addItem(L("Copy Link Add_ress")) { Clipboard.setText(url.absoluteString) }
            if textView.hasSelection { menu.addSeparator() }
        }
        if textView.hasSelection || link == nil {
            let selected = textView.selectedText
            menu.addItem(L("_Copy"), sensitive: selected != nil) { if let selected { Clipboard.setText(selected) } }
        }
        if link == nil {
            menu.addItem(L("Select _All")) { [weak self] in self?.textView.selectAll() }
            menu.addSeparator()
            // Firefox's View → Page Style → No Style: the page without its author's CSS.
            menu.addCheckItem(L("Page _Style"), active: pageStyles) { [weak self] on in self?.onPageStyleToggled?(on) }
            if let imagesShown {
                menu.addCheckItem(L("Show _Images"), active: imagesShown) { [weak self] on in self?.onImagesToggled?(on) }
            }
            let other: ReadingPlacement = placement == .left ? .centred : .left
            menu.addItem(other == .centred ? L("_Centre the Text") : L("Text at the _Left")) { [weak self] in
                self?.placement = other
                self?.onPlacementChosen?(other)
            }
        }
        contextMenu = menu
        menu.popup(over: textView, at: rect)
    }

    // MARK: Text size

    /// Sets the text size, keeping the line at the top of the view at the top.
    package func setZoom(_ factor: Double) {
        guard factor != zoom else { return }
        let top = textView.topCharacter
        zoom = factor
        textView.setFontScale(factor)
        gridAreasNeedSize()
        guard top > 0 else { return }
        // The new size is laid out when GTK next validates the style; the mark waits for that layout.
        textView.scroll(toCharacter: top)
        sources.idle { [weak self] in self?.textView.scroll(toCharacter: top) }
    }

    // MARK: Link colours

    /// Link and visited-link colours from the theme (made readable where it falls short); called again when the
    /// theme changes.
    func applyLinkColors() {
        let colors = textView.readableLinkColors
        sharedTags[.link]?.apply(TextTag.Look(foreground: colors.link))
        sharedTags[.visited]?.apply(TextTag.Look(foreground: colors.visited))
        textView.queueDraw()
    }

    /// Gives code its tint: the theme's text colour laid thinly over its background, so a code block is a
    /// slightly darker band in a light theme and a slightly lighter one in a dark theme.
    func applyCodeColors() {
        let tint = textView.codeTint
        for (look, tag) in sharedTags {
            switch look {
            case .code: tag.apply(TextTag.Look(background: tint))
            case .codeBlock: tag.apply(TextTag.Look(paragraphBackground: tint))
            default: break
            }
        }
        textView.queueDraw()
    }

    /// The page's colours where they keep 4.5:1 in the current theme; called again when the theme changes, so
    /// navy text shown on a light theme goes back to the theme's text colour on a dark one.
    func applyPageColors() {
        for (look, tag) in sharedTags { applyPageColors(look, to: tag) }
        textView.queueDraw()
    }

    func applyPageColors(_ look: PageTag, to tag: TextTag) {
        guard case .pageColors(let text, let background, let block) = look else { return }
        let theme = textView.themeTextColors
        let chosen = CSSColor.readableColors(text: text.map(Contrast.Color.init(packed:)),
                                             background: background.map(Contrast.Color.init(packed:)),
                                             themeText: theme.text.contrastColor,
                                             themeBackground: (theme.background ?? RGBA(red: 1, green: 1, blue: 1)).contrastColor)
        // A block's background fills its lines from margin to margin (GtkTextTag's `paragraph-background`).
        tag.setColors(foreground: chosen.text.map(RGBA.init), background: chosen.background.map(RGBA.init),
                      paragraph: block)
    }

    /// Gives the links to `url` the visited look, now that it has been visited.
    package func markVisited(_ url: URL) {
        guard let link = document?.links.firstIndex(of: url.absoluteString) else { return }
        let visited = shared(.visited)
        let unvisited = shared(.link)
        // A link the page colours itself (`TextStyle.linkColored`) has neither tag and keeps its colour.
        for range in linkRanges where range.link == link && textView.hasTag(unvisited, atCharacter: range.start) {
            textView.removeTag(unvisited, fromCharacter: range.start, to: range.end)
            textView.applyTag(visited, fromCharacter: range.start, to: range.end)
        }
    }
}
