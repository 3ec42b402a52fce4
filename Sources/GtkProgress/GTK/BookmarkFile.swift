internal import CGtk
import FoundationEssentials
import Glibc

/// Bookmarks in XBEL, read and written by GLib's GBookmarkFile (the format and code GTK's file chooser and GNOME
/// use). <https://docs.gtk.org/glib/struct.BookmarkFile.html> Each call makes its own GBookmarkFile, so it may run
/// on any thread (off the main loop); `g_bookmark_file_to_file` writes atomically (`g_file_set_contents`: a
/// temporary file renamed over the old one).
package enum BookmarkFile {
    /// What reading found.
    package enum Contents: Sendable {
        case missing
        case bookmarks([Bookmarks.Entry])
        case damaged(String)
    }

    /// `$XDG_DATA_HOME/gtkprogress/bookmarks.xbel` (`~/.local/share/…`).
    package static func standardPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/gtkprogress/bookmarks.xbel" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/gtkprogress/bookmarks.xbel" }
        return nil
    }

    /// The bookmarks, oldest first (the order they were added, by GBookmarkFile's `added` time and then place).
    package static func read(_ path: String) -> Contents {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        // Bookmark files are small; a very large one is not read into memory whole.
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 32 << 20 {
            return .damaged("The bookmarks file \(path) was not read: it is larger than 32 MB.")
        }
        guard let file = g_bookmark_file_new() else { return .damaged("The bookmarks file \(path) could not be read.") }
        defer { g_bookmark_file_free(file) }
        var error: UnsafeMutablePointer<GError>?
        guard g_bookmark_file_load_from_file(file, path, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
            if let error { g_error_free(error) }
            return .damaged("The bookmarks file \(path) was not read: \(message).")
        }
        var count: gsize = 0
        guard let uris = g_bookmark_file_get_uris(file, &count) else { return .bookmarks([]) }
        defer { g_strfreev(uris) }
        var entries: [(added: Int, index: Int, entry: Bookmarks.Entry)] = []
        for index in 0..<Int(count) {
            guard let uri = uris[index], let url = URL(string: String(cString: uri)) else { continue }
            var title: String?
            if let text = g_bookmark_file_get_title(file, uri, nil) {
                title = String(cString: text)
                g_free(text)
            }
            var added = 0
            if let time = g_bookmark_file_get_added_date_time(file, uri, nil) { added = Int(g_date_time_to_unix(time)) }
            entries.append((added, index, Bookmarks.Entry(url: url, title: title ?? AddressInput.displayString(url))))
        }
        entries.sort { ($0.added, $0.index) < ($1.added, $1.index) }
        return .bookmarks(entries.map(\.entry))
    }

    /// Writes `entries` to `path` (its folder made private, as the XDG specification asks); a message on failure.
    package static func write(_ entries: [Bookmarks.Entry], to path: String, now: Int = Int(Date().timeIntervalSince1970))
        -> String? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if g_mkdir_with_parents(folder, 0o700) != 0 {
            return "Cannot save the bookmarks in \(folder): \(String(cString: strerror(errno)))."
        }
        guard let file = g_bookmark_file_new() else { return "Cannot save the bookmarks." }
        defer { g_bookmark_file_free(file) }
        for (index, entry) in entries.enumerated() {
            let uri = entry.url.absoluteString
            g_bookmark_file_set_title(file, uri, entry.title)
            // The order is kept through the `added` times, a second apart.
            if let time = g_date_time_new_from_unix_utc(gint64(now - entries.count + index)) {
                g_bookmark_file_set_added_date_time(file, uri, time)
                g_date_time_unref(time)
            }
            g_bookmark_file_add_application(file, uri, "gtkprogress", "gtkprogress %u")
        }
        var error: UnsafeMutablePointer<GError>?
        guard g_bookmark_file_to_file(file, path, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return "Cannot save the bookmarks to \(path): \(message)."
        }
        return nil
    }
}
