import FoundationEssentials
import GtkProgressFiles

/// The header bar's primary menu (GNOME HIG, "Primary menus"): what the window can do besides navigating.
extension Browser {
    func connectMenu() {
        let menu = Menu()
        menu.addItem(L("_New Window"), accelerator: "<Primary>n") { [weak self] in self?.onNewWindow?() }
        menu.addItem(L("_History"), accelerator: "<Primary>h") { [weak self] in self?.showHistory() }
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
        chrome.menuButton.onOpening { [weak self, larger, smaller, normal] in
            guard let self else { return }
            larger.isSensitive = !self.zoom.isLargest
            smaller.isSensitive = !self.zoom.isSmallest
            normal.isSensitive = self.zoom != .normal
        }
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
