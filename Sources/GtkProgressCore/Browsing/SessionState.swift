import FoundationEssentials
import Glibc

/// What survives a restart: each window's back/forward list with its scroll positions, its text size and size,
/// and the addresses visited (for the visited-link colour). Only addresses and numbers are kept, never a page:
/// a restored page is always fetched again.
///
/// Encoding and decoding are pure; the viewer reads and writes the file (`SessionFile`).
package struct SessionState: Equatable, Sendable {
    /// The format's version; a file of a newer version is not read (and not overwritten until the user moves on).
    package static let version = 1
    /// Limits that keep a hand-edited or damaged file from opening hundreds of windows.
    package static let maxWindows = 32
    package static let maxEntries = 50
    package static let maxVisited = 1000
    /// A title is kept to this many Unicode scalars: a window title shows far fewer, and a page's `<title>` may be
    /// megabytes long.
    package static let maxTitleScalars = 1024
    /// Browsers bound addresses at 2 MB (Chromium's `url::kMaxURLChars`, 2 × 1024 × 1024); a longer one is not saved.
    package static let maxURLBytes = 2 * 1024 * 1024
    /// The most `encoded()` writes, whatever the windows hold: below the 8 MB `SessionFile` reads, so a saved
    /// session always reads back.
    package static let largestEncoding = 6 * 1024 * 1024

    package var windows: [Window]
    /// Addresses visited, oldest first.
    package var visited: [URL]
    /// The text size chosen last, in any window: new windows start with it, also in a new session.
    package var zoom: ZoomLevel

    package init(windows: [Window] = [], visited: [URL] = [], zoom: ZoomLevel = .normal) {
        self.windows = windows
        self.visited = visited
        self.zoom = zoom
    }

    package struct Window: Equatable, Sendable {
        package var entries: [Entry]
        package var currentIndex: Int
        package var zoom: ZoomLevel
        package var width: Int?
        package var height: Int?
        /// Whether the window shows the pages' images (the reader can turn them off; then alt text stands in).
        package var images: Bool
        /// The window's "Page style" toggle: pages with their author styles (the default) or without.
        package var pageStyles: Bool
        /// The text sits in the middle of a wide window instead of at its left (`PageView.placement`).
        package var centred = false

        package init(entries: [Entry], currentIndex: Int, zoom: ZoomLevel = .normal, width: Int? = nil,
                    height: Int? = nil, images: Bool = true, pageStyles: Bool = true) {
            self.entries = entries
            self.currentIndex = currentIndex
            self.zoom = zoom
            self.width = width
            self.height = height
            self.images = images
            self.pageStyles = pageStyles
        }

        /// A window as its navigation model stands. The page being loaded counts only while the window has
        /// nothing else (its first page): its address is what the window is for.
        package init<Page>(model: NavigationModel<Page>, zoom: ZoomLevel = .normal, width: Int? = nil,
                          height: Int? = nil, images: Bool = true, pageStyles: Bool = true) {
            var entries = model.list.entries.map { entry in
                Entry(url: entry.url, title: entry.title, scroll: entry.scrollOffset, document: entry.documentID)
            }
            var current = model.list.currentIndex
            if entries.isEmpty, let pending = model.pending {
                entries = [Entry(url: pending.url, title: nil, scroll: 0, document: 1)]
                current = 0
            }
            self.init(entries: entries, currentIndex: current, zoom: zoom, width: width, height: height,
                      images: images, pageStyles: pageStyles)
        }

        /// The entries as a navigation model takes them back (`NavigationModel.restore`), with no page cached.
        package func historyEntries<Page>(of _: Page.Type = Page.self) -> [HistoryEntry<Page>] {
            entries.map { HistoryEntry(url: $0.url, title: $0.title, scrollOffset: $0.scroll, documentID: $0.document) }
        }
    }

    package struct Entry: Equatable, Sendable {
        package var url: URL
        package var title: String?
        /// The vertical scroll position, in pixels.
        package var scroll: Double
        /// Entries with the same number are places in one page (see `HistoryEntry.documentID`).
        package var document: Int

        package init(url: URL, title: String?, scroll: Double, document: Int) {
            self.url = url
            self.title = title
            self.scroll = scroll
            self.document = document
        }
    }

    /// Why a session file could not be used.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    // MARK: Encoding

    /// The file's bytes: JSON, keys sorted so two saves of the same state are the same bytes; `bounded()` first,
    /// so the file is never larger than `largestEncoding`.
    package func encoded() -> Data {
        let state = bounded()
        let file = FileFormat(version: Self.version, windows: state.windows.map { window in
            FileFormat.Window(entries: window.entries.map { entry in
                FileFormat.Entry(url: Self.stored(entry.url), title: entry.title,
                                 scroll: entry.scroll.isFinite ? max(entry.scroll, 0) : 0, document: entry.document)
            }, current: window.currentIndex, zoom: window.zoom.factor, width: window.width, height: window.height,
               images: window.images ? nil : false, pageStyle: window.pageStyles ? nil : false,
               centred: window.centred ? true : nil)
        }, visited: state.visited.map(Self.stored), zoom: zoom.factor)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(file)) ?? Data("{}".utf8)
    }

    /// The state as it is written: the `maxWindows` windows used last; in each, addresses over `maxURLBytes`
    /// dropped, titles cut to `maxTitleScalars`, and the `maxEntries` entries around the current one; the
    /// `maxVisited` addresses visited last. Then, should all that still be over `largestEncoding` (long addresses
    /// in many entries), entries are kept in order of worth until the budget is spent: every window's current entry
    /// (the windows used last first), then the entries nearest the current one, then the addresses visited,
    /// newest first. A window whose current entry does not fit is left out.
    package func bounded() -> SessionState {
        var windows: [Window] = windows.suffix(Self.maxWindows).map { window in
            var entries: [Entry] = []
            var current = window.currentIndex
            for (index, entry) in window.entries.enumerated() {
                guard entry.url.absoluteString.utf8.count <= Self.maxURLBytes else {
                    if index < window.currentIndex { current -= 1 }
                    continue
                }
                var kept = entry
                kept.title = entry.title.map(Self.cutTitle)
                entries.append(kept)
            }
            current = min(max(current, 0), max(entries.count - 1, 0))
            if entries.count > Self.maxEntries {
                let first = min(max(current - Self.maxEntries / 2, 0), entries.count - Self.maxEntries)
                entries = Array(entries[first..<(first + Self.maxEntries)])
                current -= first
            }
            var bounded = window
            bounded.entries = entries
            bounded.currentIndex = current
            return bounded
        }
        windows.removeAll { $0.entries.isEmpty }
        var visited = Array(visited.filter { $0.absoluteString.utf8.count <= Self.maxURLBytes }.suffix(Self.maxVisited))

        // The budget, in bytes of JSON, with room for the keys, numbers and indentation around each item.
        let entryFrame = 256, windowFrame = 512, visitedFrame = 32
        let costs = windows.map { window in
            window.entries.map { entry in
                Self.jsonLength(entry.url.absoluteString) + (entry.title.map(Self.jsonLength) ?? 0) + entryFrame
            }
        }
        let visitedCosts = visited.map { Self.jsonLength($0.absoluteString) + visitedFrame }
        let fixed = 4096 + windows.count * windowFrame
        let total = fixed + costs.reduce(0) { $0 + $1.reduce(0, +) } + visitedCosts.reduce(0, +)
        guard total > Self.largestEncoding else { return SessionState(windows: windows, visited: visited, zoom: zoom) }

        var left = Self.largestEncoding - fixed
        var kept = windows.map { [Bool](repeating: false, count: $0.entries.count) }
        func admit(_ window: Int, _ index: Int) {
            guard index >= 0, index < costs[window].count, !kept[window][index], costs[window][index] <= left else { return }
            kept[window][index] = true
            left -= costs[window][index]
        }
        let recentFirst = Array(windows.indices.reversed())
        for window in recentFirst { admit(window, windows[window].currentIndex) }
        for distance in 1..<Self.maxEntries {
            for window in recentFirst where kept[window][windows[window].currentIndex] {
                admit(window, windows[window].currentIndex - distance)
                admit(window, windows[window].currentIndex + distance)
            }
        }
        var keptVisited: [URL] = []
        for (url, price) in zip(visited, visitedCosts).reversed() where price <= left {
            keptVisited.append(url)
            left -= price
        }
        visited = keptVisited.reversed()
        var result: [Window] = []
        for (number, window) in windows.enumerated() where kept[number][window.currentIndex] {
            var trimmed = window
            trimmed.entries = window.entries.indices.filter { kept[number][$0] }.map { window.entries[$0] }
            trimmed.currentIndex = window.entries.indices.prefix(window.currentIndex).filter { kept[number][$0] }.count
            result.append(trimmed)
        }
        return SessionState(windows: result, visited: visited, zoom: zoom)
    }

    /// `title` cut to `maxTitleScalars` Unicode scalars (not characters: one character may hold any number of
    /// combining marks).
    static func cutTitle(_ title: String) -> String {
        let scalars = title.unicodeScalars
        guard scalars.count > maxTitleScalars else { return title }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(maxTitleScalars))
        return String(cut)
    }

    /// The most bytes `text` takes as a JSON string's contents (RFC 8259 §7): a quotation mark or reverse solidus
    /// takes two, a control character at most six (`\u001f`), anything else its UTF-8 bytes. An address has none
    /// of the three (RFC 3986 leaves them out), so the C library's `strcspn` finds that at memory speed and the
    /// byte count is the answer; only text that has one (or a NUL, where `strcspn` stops) is counted byte by byte.
    private static func jsonLength(_ text: String) -> Int {
        let count = text.utf8.count
        let plain = text.withCString { strcspn($0, Self.needsEscape) }
        if plain == count { return count }
        var length = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C: length += 2
            case ..<0x20: length += 6
            default: length += 1
            }
        }
        return length
    }

    /// The bytes JSON escapes: `"`, `\` and the controls U+0001…U+001F (U+0000 ends a C string, so `strcspn`
    /// stops there by itself).
    private static let needsEscape: [CChar] = [0x22, 0x5C] + (1..<0x20).map { CChar($0) } + [0]

    /// Reads a session file. Anything unusable in an otherwise sound file (an address that is no longer one, a
    /// scheme the viewer does not open, an index out of range) is dropped or clamped; a file that is not a
    /// session at all is a failure with a message for the user.
    package static func decode(_ data: Data) -> Result<SessionState, Failure> {
        let file: FileFormat
        do {
            file = try JSONDecoder().decode(FileFormat.self, from: data)
        } catch DecodingError.dataCorrupted {
            return .failure(Failure(description: "it is not valid JSON"))
        } catch {
            return .failure(Failure(description: "it is not a session (\(Self.describe(error)))"))
        }
        guard file.version <= Self.version else {
            return .failure(Failure(description: "it was written by a newer version (format \(file.version))"))
        }
        var state = SessionState()
        for window in file.windows.prefix(Self.maxWindows) {
            var entries: [Entry] = []
            var current = min(max(window.current, 0), max(window.entries.count - 1, 0))
            // Document numbers are the file's to choose and so hostile: renumbered 1, 2, 3… in order of first use,
            // keeping which entries share a page, so that the model's next number can never overflow.
            var documents: [Int: Int] = [:]
            for (index, saved) in window.entries.enumerated() {
                guard let url = usableURL(saved.url) else {
                    if index < window.current { current -= 1 }
                    continue
                }
                let scroll = saved.scroll.isFinite ? max(saved.scroll, 0) : 0
                let key = saved.document ?? -(index + 1)
                let document = documents[key] ?? documents.count + 1
                documents[key] = document
                entries.append(Entry(url: url, title: saved.title.map(cutTitle), scroll: scroll, document: document))
            }
            guard !entries.isEmpty else { continue }
            let dropped = max(entries.count - maxEntries, 0)
            entries = Array(entries.suffix(maxEntries))
            current = min(max(current - dropped, 0), entries.count - 1)
            let size = { (value: Int?) in value.flatMap { (100...16384).contains($0) ? $0 : nil } }
            var restored = Window(entries: entries, currentIndex: current, zoom: ZoomLevel(factor: window.zoom ?? 1),
                                  width: size(window.width), height: size(window.height),
                                  images: window.images ?? true, pageStyles: window.pageStyle ?? true)
            restored.centred = window.centred ?? false
            state.windows.append(restored)
        }
        state.visited = (file.visited ?? []).suffix(maxVisited).compactMap(usableURL)
        state.zoom = ZoomLevel(factor: file.zoom ?? 1)
        return .success(state)
    }

    /// Only what a person may open from the address bar comes back (`NavigationPolicy`, as if typed).
    static func usableURL(_ text: String) -> URL? {
        guard let url = URL(string: text), NavigationPolicy.refusal(for: url, source: .user) == nil else { return nil }
        return url
    }

    /// An address as the file keeps it: never with a password, which lives only in the request that used it
    /// (a restored page that needs one asks the server again).
    static func stored(_ url: URL) -> String {
        guard url.password != nil, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        parts.password = nil
        return parts.url?.absoluteString ?? url.absoluteString
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no “\(key.stringValue)”"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return "“\(path)” has the wrong type"
        default: return "unreadable"
        }
    }

    /// The JSON layout, versioned.
    private struct FileFormat: Codable {
        var version: Int
        var windows: [Window]
        var visited: [String]?
        var zoom: Double?

        struct Window: Codable {
            var entries: [Entry]
            var current: Int
            var zoom: Double?
            var width: Int?
            var height: Int?
            /// Written only when false: images shown is the default.
            var images: Bool?
            /// Written only when off, so a session of windows with page styles reads as before.
            var pageStyle: Bool?
            var centred: Bool?
        }

        struct Entry: Codable {
            var url: String
            var title: String?
            var scroll: Double
            var document: Int?
        }
    }
}
