import FoundationEssentials
import GtkProgressFiles

/// The header bar's primary menu (GNOME HIG, "Primary menus"): what the window can do besides navigating.
extension Browser {
    func connectMenu() {
        let menu = Menu()
        menu.addItem(L("_New Window"), accelerator: "<Primary>n") { [weak self] in self?.onNewWindow?() }
        menu.addItem(L("_History"), accelerator: "<Primary>h") { [weak self] in self?.showHistory() }
        let bookmarksItem = menu.addSubmenuItem(L("_Bookmarks"))
        bookmarksItem.setSubmenu(makeBookmarksMenu())
        menu.addSeparator()
        let styles = menu.addCheckItem(L("Page _Style"), active: pageStyles) { [weak self] on in self?.setPageStyles(on) }
        let images = menu.addCheckItem(L("Show _Images"), active: imagesShown) { [weak self] on in
            self?.setImagesShown(on)
        }
        menu.addSeparator()
        let larger = menu.addItem(L("_Larger Text"), accelerator: "<Primary>plus") { [weak self] in
            guard let self else { return }
            self.setZoom(self.zoom.zoomedIn)
        }
        let smaller = menu.addItem(L("_Smaller Text"), accelerator: "<Primary>minus") { [weak self] in
            guard let self else { return }
            self.setZoom(self.zoom.zoomedOut)
        }
        let normal = menu.addItem(L("_Normal Text Size"), accelerator: "<Primary>0") { [weak self] in
            self?.setZoom(.normal)
        }
        menu.addSeparator()
        menu.addItem(L("_Keyboard Shortcuts"), accelerator: "<Primary>question") { [weak self] in
            guard let self else { return }
            self.showShortcuts()
        }
        menu.addItem(L("_About GtkProgress")) { [weak self] in self?.showAbout() }
        chrome.menuButton.setMenu(menu)
        // As it opens, each item says whether it can act now (the text size it would reach).
        chrome.menuButton.onOpening { [weak self, larger, smaller, normal, bookmarksItem, styles, images] in
            guard let self else { return }
            styles.isActive = self.pageStyles
            images.isActive = self.imagesShown
            larger.isSensitive = !self.zoom.isLargest
            smaller.isSensitive = !self.zoom.isSmallest
            normal.isSensitive = self.zoom != .normal
            bookmarksItem.setSubmenu(self.makeBookmarksMenu())
        }
    }

    /// The bookmarks, oldest first, each opening its page here; the first item bookmarks the page shown.
    private func makeBookmarksMenu() -> Menu {
        let menu = Menu()
        let bookmarked = model.current.map { bookmarkStore?.contains($0.url) ?? false } ?? false
        menu.addItem(bookmarked ? L("_Remove Bookmark") : L("_Add Bookmark"), accelerator: "<Primary>d",
                     sensitive: bookmarkStore != nil && model.current != nil) { [weak self] in self?.toggleBookmark() }
        let entries = bookmarkStore?.bookmarks.entries ?? []
        if !entries.isEmpty { menu.addSeparator() }
        // A menu is no place for thousands: the first hundred; words in the address entry find the rest.
        for entry in entries.prefix(100) {
            // No mnemonic from a page's title: underscores stay as written.
            let label = entry.title.replacing("_", with: "__")
            menu.addItem(label) { [weak self] in self?.open(entry.url, kind: .typed) }
        }
        return menu
    }

    // MARK: The address entry's suggestions

    /// The most suggestions of each kind: the newest visits and the first bookmarks.
    static let completionRows = 500

    /// The history or the bookmarks changed: the suggestions are made again once the main loop is idle, once for
    /// a burst of changes.
    func completionChanged() {
        guard historyStore != nil || bookmarkStore != nil, !completionPending else { return }
        completionPending = true
        chrome.sources.idle { [weak self] in
            guard let self else { return }
            self.completionPending = false
            self.fillCompletion()
        }
    }

    private func fillCompletion() {
        if completion == nil {
            let made = EntryCompletion(for: chrome.address)
            made.onChosen { [weak self] value in
                guard let self else { return }
                self.chrome.address.text = value
                self.open(text: value, kind: .typed)
                self.page.focus()
            }
            completion = made
        }
        let marked = bookmarkStore?.bookmarks.entries.prefix(Self.completionRows) ?? []
        let visits = historyStore?.history.entries.prefix(Self.completionRows) ?? []
        var seen = Set<URL>()
        var rows: [(shown: String, value: String)] = []
        for (url, title) in marked.map({ ($0.url, $0.title) }) + visits.map({ ($0.url, $0.title) })
        where seen.insert(url).inserted {
            let address = AddressInput.displayString(url, limit: BrowserWindow.statusLimit)
            rows.append((title + " — " + address, AddressInput.displayString(url)))
        }
        completion?.setRows(rows)
    }

    /// Ctrl+?, F1: the keyboard shortcuts, generated from the key table.
    func showShortcuts() {
        if shortcutsWindow == nil { shortcutsWindow = ShortcutsWindow.make(for: chrome.window) }
        shortcutsWindow?.present()
    }

    /// The About window, from the application's AppStream metadata (read off the main loop; a few kilobytes).
    func showAbout() {
        let languages = Display.languageNames
        BackgroundWork.run({ DataFiles.metainfo().map { AppMetadata(metainfo: $0, languages: languages) } }) { [weak self] metadata in
            guard let self else { return }
            let content = AboutDialog.Content(
                name: metadata?.name ?? "GtkProgress",
                version: metadata?.version,
                comments: metadata?.summary,
                website: metadata?.website,
                license: metadata?.license ?? L("No licence has been chosen for GtkProgress yet: until one is, all "
                    + "rights are reserved."),
                iconName: "org.gtkprogress.Viewer",
                authors: [metadata?.developer ?? "The GtkProgress developers"])
            AboutDialog.present(content, over: self.chrome.window)
        }
    }
}
