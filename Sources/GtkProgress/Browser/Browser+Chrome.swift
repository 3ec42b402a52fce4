import FoundationEssentials

/// The window's widgets and keys: connected once, and refreshed from the model after every change.
extension Browser {
    /// Remembers where the reader is, unless the page shown is a partial one still arriving.
    func saveScroll() { if session?.partial == nil { model.saveScroll(page.verticalOffset) } }

    /// Everything the chrome shows comes from the model (`ChromeState`).
    func refreshChrome() {
        let state = ChromeState(model: model, partialTitle: session?.partial?.title)
        chrome.setHistory(canGoBack: state.canGoBack, canGoForward: state.canGoForward)
        chrome.setLoading(state.isLoading)
        chrome.showAddress(state.address)
        chrome.window.title = state.windowTitle
    }

    func connectChrome() {
        chrome.back.on("clicked") { [weak self] in self?.goBack() }
        chrome.forward.on("clicked") { [weak self] in self?.goForward() }
        chrome.reloadOrStop.on("clicked") { [weak self] in
            guard let self else { return }
            if self.model.isLoading { self.stop() } else { self.reload() }
        }
        chrome.address.on("activate") { [weak self] in
            guard let self else { return }
            self.open(text: self.chrome.address.text, kind: .typed)
            if self.model.isLoading { self.page.root.grabFocus() }
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
            guard let self, let command = BrowserCommand.command(for: key.chord) else { return false }
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
                self.chrome.statusText = "Dropped text is not an address: \(failure.description)"
                return false
            }
        }
        page.onLinkActivated = { [weak self] url in self?.followLink(url) }
        page.onLinkHover = { [weak self] url in
            guard let self else { return }
            if let url {
                self.hovering = true
                self.chrome.statusText = BrowserWindow.displayString(url)
            } else if self.hovering {
                self.hovering = false
                self.chrome.statusText = self.model.isLoading ? "Loading…" : (self.model.current?.page?.status ?? "")
            }
        }
    }

    /// Carries out a key's command; false lets the focused widget have the key.
    func perform(_ command: BrowserCommand) -> Bool {
        switch command {
        case .back: goBack()
        case .forward: goForward()
        case .reload: reload()
        case .stopOrRestoreAddress:
            guard model.isLoading else {
                // Escape in the address entry puts back the address of the page shown.
                guard chrome.address.hasFocus else { return false }
                chrome.address.text = model.current.map { BrowserWindow.displayString($0.url) } ?? ""
                page.root.grabFocus()
                return false
            }
            stop()
        case .focusAddress:
            chrome.address.grabFocus()
            chrome.address.selectAll()
        case .closeWindow: chrome.window.close()
        case .save: saveBinary()
        }
        return true
    }
}
