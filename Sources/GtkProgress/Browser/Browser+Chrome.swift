import FoundationEssentials

/// The window's widgets and keys: connected once, and refreshed from the model after every change.
extension Browser {
    /// Remembers where the reader is, when the page on screen is the current entry's (not a page still
    /// arriving, nor the blank view of a restored entry being fetched again).
    func saveScroll() {
        guard let shown = model.current?.page, page.document?.storage === shown.document.storage else { return }
        model.saveScroll(page.verticalOffset)
    }

    /// Everything the chrome shows comes from the model (`ChromeState`).
    func refreshChrome() {
        let state = ChromeState(model: model, partialTitle: session?.partial?.title)
        chrome.setHistory(canGoBack: state.canGoBack, canGoForward: state.canGoForward)
        // The load goes on while its images come; Stop ends them too.
        let isLoading = isBusy
        chrome.setLoading(isLoading)
        // A screen reader hears the load begin and end once, from the page's busy state, not every percent.
        page.textView.isAccessibleBusy = isLoading
        // The bar's description says how much has arrived while it does (`noteTransfer`), nothing afterwards.
        if !isLoading { indicator.view.widget.setAccessibleDescription("") }
        chrome.restingStatus = model.current?.page?.status
        chrome.showAddress(state.address)
        chrome.window.title = state.windowTitle
        recordVisit()
        refreshStar()
        onStateChanged?()
    }

    func connectChrome() {
        chrome.back.onClicked { [weak self] in self?.goBack() }
        chrome.star.onClicked { [weak self] in self?.toggleBookmark() }
        chrome.forward.onClicked { [weak self] in self?.goForward() }
        chrome.reloadOrStop.onClicked { [weak self] in
            guard let self else { return }
            if self.isBusy { self.stop() } else { self.reload() }
        }
        chrome.address.onActivate { [weak self] in
            guard let self else { return }
            self.open(text: self.chrome.address.text, kind: .typed)
            if self.model.isLoading || self.model.current != nil { self.page.focus() }
        }
        // GTK would cut a longer paste to what the entry holds and load what is left; refuse it whole instead.
        chrome.address.onInput { [weak self] text in
            guard let self else { return true }
            let total = self.chrome.address.characterCount + text.unicodeScalars.count
            guard total > Entry.maxCharacters else { return true }
            self.chrome.statusText = AddressInput.Failure.tooLong(characters: total, limit: Entry.maxCharacters).description
            return false
        }
        chrome.window.onKeyPress { [weak self] key in
            guard let self, let command = BrowserCommand.command(for: key.chord, focus: self.keyboardFocus) else {
                return false
            }
            return self.perform(command)
        }
        // A drop anywhere navigates: the text view and the entry would otherwise keep it for themselves.
        page.refuseOwnDrops()
        chrome.address.refuseOwnDrops()
        chrome.window.acceptDrops { [weak self] dropped in
            guard let self else { return false }
            switch DroppedURL.urls(target: dropped.target, bytes: dropped.bytes, uris: dropped.uris) {
            case .success(let urls):
                self.open(urls, kind: .dropped)
                return true
            case .failure(let failure):
                self.chrome.statusText = L("Dropped text is not an address: %@", failure.description)
                return false
            }
        }
        page.onLinkActivated = { [weak self] url in self?.followLink(url) }
        page.onPageStyleToggled = { [weak self] on in self?.setPageStyles(on) }
        page.onFormSubmitted = { [weak self] submission in self?.submitForm(submission) }
        page.onFormRefused = { [weak self] message in self?.chrome.statusText = message }
        page.onLinkOpenInNewWindow = { [weak self] url in self?.openLinkInNewWindow(url) }
        page.onLinkHover = { [weak self] url in
            guard let self else { return }
            if let url {
                self.hovering = true
                self.chrome.isShowingLink = true
                self.chrome.statusText = BrowserWindow.statusString(url)
            } else if self.hovering {
                self.hovering = false
                self.chrome.isShowingLink = false
                self.restoreStatus()
            }
        }
        // The link with the keyboard focus shows where it leads, as the pointer's does.
        page.onLinkFocused = { [weak self] url in
            guard let self else { return }
            self.chrome.isShowingLink = url != nil
            if let url { self.chrome.statusText = BrowserWindow.statusString(url) } else { self.restoreStatus() }
        }
        page.onZoomStep = { [weak self] step in
            guard let self else { return }
            self.setZoom(step > 0 ? self.zoom.zoomedIn : self.zoom.zoomedOut)
        }
        page.scrolledWindow.onVerticalScroll { [weak self] in self?.onStateChanged?() }
        connectFind()
        connectMenu()
    }

    /// The status line when nothing points anywhere: loading, or what the page said.
    func restoreStatus() {
        chrome.statusText = session.map(loadStatus) ?? (model.current?.page?.status ?? "")
    }

    /// A page that is in (not an error page, not one still loading) goes into the history, once per visit.
    func recordVisit() {
        guard let store = historyStore, !model.isLoading, let current = model.current, let shown = current.page,
              shown.kind != .error else { return }
        if let last = lastRecorded, last.url == current.url, last.title == current.title { return }
        lastRecorded = (current.url, current.title)
        store.record(url: current.url, title: current.title)
    }

    /// The star says whether the page shown is bookmarked.
    func refreshStar() {
        guard let store = bookmarkStore, let current = model.current else {
            chrome.setBookmarked(nil)
            return
        }
        chrome.setBookmarked(store.contains(current.url))
    }

    /// Ctrl+D, the star: the page shown is bookmarked, or its bookmark goes.
    func toggleBookmark() {
        guard let store = bookmarkStore, let current = model.current else { return }
        switch store.toggle(current.url, title: current.title) {
        case true?: chrome.statusText = L("Bookmarked “%@”.", ChromeState.windowTitle(url: current.url, title: current.title))
        case false?: chrome.statusText = L("Bookmark removed.")
        case nil: chrome.statusText = L("This page cannot be bookmarked: there are too many bookmarks, or its address is too long.")
        }
    }

    /// Ctrl+H: the History window, opening pages in this window; with `query`, the matches of those words in the
    /// history and the bookmarks.
    func showHistory(query: String? = nil) {
        guard let store = historyStore else { return }
        if let historyWindow {
            if let query { historyWindow.search(for: query) }
            historyWindow.present()
            return
        }
        let window = HistoryWindow(store: store, bookmarks: bookmarkStore, parent: chrome.window) { [weak self] url in
            guard let self else { return }
            self.open(url, kind: .typed)
            self.chrome.window.present()
        }
        window.window.onDestroy { [weak self] in self?.historyWindow = nil }
        historyWindow = window
        if let query { window.search(for: query) }
        window.present()
    }

    /// Ctrl+L, and a new window opened with Ctrl+N: the address entry has the keyboard, its text selected so
    /// typing replaces it.
    package func focusAddress() {
        chrome.address.grabFocus()
        chrome.address.selectAll()
    }

    /// Which part of the window has the keyboard, as `BrowserCommand` reads it.
    var keyboardFocus: BrowserCommand.Focus {
        if page.hasFocus { return .page }
        if chrome.address.hasFocus { return .address }
        if chrome.findBar.entry.hasFocus { return .find }
        return .other
    }

    /// Carries out a key's command; false lets the focused widget have the key.
    func perform(_ command: BrowserCommand) -> Bool {
        switch command {
        case .back: goBack()
        case .forward: goForward()
        case .reload: reload()
        case .stopOrRestoreAddress:
            guard model.isLoading else {
                if chrome.findBar.isOpen {
                    closeFind()
                    return true
                }
                // Escape in the address entry puts back the address of the page shown.
                guard chrome.address.hasFocus else { return false }
                chrome.address.text = model.current.map { BrowserWindow.displayString($0.url) } ?? ""
                page.focus()
                return false
            }
            stop()
        case .focusAddress: focusAddress()
        case .closeWindow: chrome.window.close()
        case .quit:
            if let onQuit { onQuit() } else { chrome.window.close() }
        case .newWindow: onNewWindow?()
        case .save: saveBinary()
        case .nextLink, .previousLink:
            // Past the last link the key goes on to GTK, which moves the focus out of the page.
            return page.focusLink(forward: command == .nextLink)
        case .activateLink, .activateLinkInNewWindow:
            return page.activateFocusedLink(newWindow: command == .activateLinkInNewWindow)
        case .pageDown, .pageUp: page.scrollByPage(down: command == .pageDown)
        case .scrollToTop, .scrollToBottom: page.scrollToEnd(bottom: command == .scrollToBottom)
        case .find: openFind()
        case .findNext, .findPrevious: findAgain(forward: command == .findNext)
        case .closeFind: closeFind()
        case .zoomIn: setZoom(zoom.zoomedIn)
        case .zoomOut: setZoom(zoom.zoomedOut)
        case .zoomReset: setZoom(.normal)
        case .primaryMenu: chrome.menuButton.isOpen.toggle()
        case .shortcuts: showShortcuts()
        case .history: showHistory()
        case .bookmark: toggleBookmark()
        }
        return true
    }

    /// Changes the text size of this window's pages, keeping the reader's place, and says so in the status line
    /// (unless a new window just starts with the size chosen last).
    package func setZoom(_ level: ZoomLevel, announce: Bool = true) {
        let changed = level != zoom
        zoom = level
        page.setZoom(level.factor)
        if announce { chrome.statusText = L("Text size %@", "\(level)") }
        guard changed else { return }
        onZoomChanged?(level)
        onStateChanged?()
    }

    // MARK: Find in page

    func connectFind() {
        let bar = chrome.findBar
        bar.entry.onSearchChanged { [weak self] in
            guard let self, bar.isOpen else { return }
            self.page.finder.search(bar.entry.text)
        }
        bar.previous.onClicked { [weak self] in self?.findAgain(forward: false) }
        bar.next.onClicked { [weak self] in self?.findAgain(forward: true) }
        // Closed by its own close button, or by GtkSearchBar itself.
        bar.onOpenChanged { [weak self] in
            guard let self, !bar.isOpen, self.page.finder.results != nil else { return }
            self.closeFind()
        }
        page.finder.onChange = { results in bar.matchLabel.text = results?.label ?? "" }
    }

    /// Ctrl+F: the find bar opens (or, open already, takes the keyboard), its text selected so typing replaces it.
    func openFind() {
        let bar = chrome.findBar
        let wasOpen = bar.isOpen
        bar.isOpen = true
        // Keys typed at once after Ctrl+F go to the entry: it must be realized to take them.
        bar.entry.realize()
        bar.entry.grabFocus()
        bar.entry.selectAll()
        if !wasOpen, !bar.entry.text.isEmpty { page.finder.search(bar.entry.text) }
    }

    /// Return, F3, Ctrl+G (Shift: backwards). With the bar closed, it opens on the last text looked for.
    func findAgain(forward: Bool) {
        let bar = chrome.findBar
        guard bar.isOpen, page.finder.results != nil else {
            openFind()
            return
        }
        page.finder.move(forward: forward)
    }

    /// Escape: the bar closes and the view stays on the match, which is left selected.
    func closeFind() {
        let bar = chrome.findBar
        page.finder.end()
        if bar.isOpen { bar.isOpen = false }
        bar.matchLabel.text = ""
        page.focus()
    }
}
