import FoundationEssentials
import GtkProgressFiles
import Glibc

/// The bookmarks every window shares, kept in `$XDG_DATA_HOME/gtkprogress/bookmarks.xbel` by GBookmarkFile
/// (`BookmarkFile`): read once off the main loop, written off it after each change (in order, on the one
/// background queue), and written before the viewer quits. A damaged file is set aside, not overwritten.
@MainActor
package final class BookmarkStore {
    package private(set) var bookmarks = Bookmarks()
    private let path: String?
    private var loaded = false
    private var saveTimer: MainLoopTimer?
    /// Changes made before the file was read: applied on top of it.
    private var early: [(URL, String?)] = []
    package var onChange: [() -> Void] = []
    package var onProblem: ((String) -> Void)?

    package init(path: String?) { self.path = path }

    package func load() {
        guard let path else {
            loaded = true
            return
        }
        BackgroundWork.run({ () -> (Bookmarks?, String?) in
            switch BookmarkFile.read(path) {
            case .missing: return (nil, nil)
            case .bookmarks(let entries): return (Bookmarks(entries: entries), nil)
            case .damaged(let message):
                let aside = path + ".damaged"
                unlink(aside)
                let kept = rename(path, aside) == 0 ? " It was kept as \(aside)." : ""
                return (nil, message + kept)
            }
        }) { [weak self] result in
            guard let self else { return }
            if let bookmarks = result.0 { self.bookmarks = bookmarks }
            for (url, title) in self.early { self.bookmarks.toggle(url, title: title) }
            self.early = []
            self.loaded = true
            if let problem = result.1 {
                StandardStreams.error("gtkprogress: " + problem + "\n")
                self.onProblem?(problem)
            }
            self.changed(save: false)
        }
    }

    package func contains(_ url: URL) -> Bool { bookmarks.contains(url) }

    /// Ctrl+D, the star: bookmarks the page or takes the bookmark away. Whether it is now bookmarked; nil when
    /// it could not be added.
    @discardableResult
    package func toggle(_ url: URL, title: String?) -> Bool? {
        if !loaded { early.append((url, title)) }
        let result = bookmarks.toggle(url, title: title)
        changed(save: loaded)
        return result
    }

    private func changed(save: Bool) {
        for handler in onChange { handler() }
        guard save, path != nil, saveTimer == nil else { return }
        saveTimer = MainLoopTimer(milliseconds: 300, name: "gtkprogress bookmarks save") { [weak self] in
            guard let self else { return false }
            self.saveTimer = nil
            self.save()
            return false
        }
    }

    private func save() {
        guard let path else { return }
        let entries = bookmarks.entries
        BackgroundWork.run({ BookmarkFile.write(entries, to: path) }) { [weak self] problem in
            guard let problem else { return }
            StandardStreams.error("gtkprogress: " + problem + "\n")
            self?.onProblem?(problem)
        }
    }

    /// Before the viewer quits: a pending change is written now.
    package func saveNow() {
        guard saveTimer != nil, let path else { return }
        saveTimer = nil
        if let problem = BookmarkFile.write(bookmarks.entries, to: path) {
            StandardStreams.error("gtkprogress: " + problem + "\n")
        }
    }
}
