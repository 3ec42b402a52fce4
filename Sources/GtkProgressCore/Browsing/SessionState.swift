import FoundationEssentials

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

        package init(entries: [Entry], currentIndex: Int, zoom: ZoomLevel = .normal, width: Int? = nil,
                    height: Int? = nil) {
            self.entries = entries
            self.currentIndex = currentIndex
            self.zoom = zoom
            self.width = width
            self.height = height
        }

        /// A window as its navigation model stands. The page being loaded counts only while the window has
        /// nothing else (its first page): its address is what the window is for.
        package init<Page>(model: NavigationModel<Page>, zoom: ZoomLevel = .normal, width: Int? = nil,
                          height: Int? = nil) {
            var entries = model.list.entries.map { entry in
                Entry(url: entry.url, title: entry.title, scroll: entry.scrollOffset, document: entry.documentID)
            }
            var current = model.list.currentIndex
            if entries.isEmpty, let pending = model.pending {
                entries = [Entry(url: pending.url, title: nil, scroll: 0, document: 1)]
                current = 0
            }
            self.init(entries: entries, currentIndex: current, zoom: zoom, width: width, height: height)
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

    /// The file's bytes: JSON, keys sorted so two saves of the same state are the same bytes.
    package func encoded() -> Data {
        let file = FileFormat(version: Self.version, windows: windows.map { window in
            FileFormat.Window(entries: window.entries.map { entry in
                FileFormat.Entry(url: entry.url.absoluteString, title: entry.title,
                                 scroll: entry.scroll.isFinite ? max(entry.scroll, 0) : 0, document: entry.document)
            }, current: window.currentIndex, zoom: window.zoom.factor, width: window.width, height: window.height)
        }, visited: visited.suffix(Self.maxVisited).map(\.absoluteString), zoom: zoom.factor)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(file)) ?? Data("{}".utf8)
    }

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
            for (index, saved) in window.entries.enumerated() {
                guard let url = usableURL(saved.url) else {
                    if index < window.current { current -= 1 }
                    continue
                }
                let scroll = saved.scroll.isFinite ? max(saved.scroll, 0) : 0
                entries.append(Entry(url: url, title: saved.title, scroll: scroll, document: saved.document ?? index + 1))
            }
            guard !entries.isEmpty else { continue }
            let dropped = max(entries.count - maxEntries, 0)
            entries = Array(entries.suffix(maxEntries))
            current = min(max(current - dropped, 0), entries.count - 1)
            let size = { (value: Int?) in value.flatMap { (100...16384).contains($0) ? $0 : nil } }
            state.windows.append(Window(entries: entries, currentIndex: current, zoom: ZoomLevel(factor: window.zoom ?? 1),
                                        width: size(window.width), height: size(window.height)))
        }
        state.visited = (file.visited ?? []).suffix(maxVisited).compactMap(usableURL)
        state.zoom = ZoomLevel(factor: file.zoom ?? 1)
        return .success(state)
    }

    /// Only what a person may open from the address bar comes back.
    private static func usableURL(_ text: String) -> URL? {
        guard let url = URL(string: text) else { return nil }
        switch url.scheme?.lowercased() {
        case "http", "https": return url.host?.isEmpty == false ? url : nil
        case "file": return url
        default: return nil
        }
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
        }

        struct Entry: Codable {
            var url: String
            var title: String?
            var scroll: Double
            var document: Int?
        }
    }
}
