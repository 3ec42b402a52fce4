import FoundationEssentials

/// Every page the reader has been to (its title, address and the time of the last visit), newest first, as kept in
/// `$XDG_DATA_HOME/gtkprogress/history.json`: the History window lists it (Ctrl+H) and searches it, and words typed
/// in the address entry are looked up in it. One entry per address; a visit again moves it to the top.
package struct BrowsingHistory: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var url: URL
        package var title: String
        /// Seconds since 1970 (UTC).
        package var time: Double

        package init(url: URL, title: String, time: Double) {
            self.url = url
            self.title = title
            self.time = time
        }
    }

    /// Newest first.
    package private(set) var entries: [Entry] = []
    /// The most entries kept: the oldest go first. With addresses cut at `maxURLBytes` the file stays under
    /// `largestEncoding`.
    package static let maxEntries = 2000
    /// A longer address is not recorded (a `data:` page, a hostile link): 8 KB is past what servers accept.
    package static let maxURLBytes = 8 * 1024
    /// The file is never larger than this (what `SessionFile` reads at most is more).
    package static let largestEncoding = 2000 * (8 * 1024 + 4 * 1024 + 100)
    static let version = 1

    package init(entries: [Entry] = []) {
        self.entries = Array(entries.prefix(Self.maxEntries))
    }

    /// A visit to `url`: it goes to the top with its title (the host when the page has none) and `time`.
    package mutating func record(url: URL, title: String?, time: Double) {
        let stored = SessionState.stored(url)
        guard stored.utf8.count <= Self.maxURLBytes, let storedURL = URL(string: stored) else { return }
        let shown = ChromeState.windowTitle(url: storedURL, title: title)
        entries.removeAll { $0.url == storedURL }
        entries.insert(Entry(url: storedURL, title: SessionState.cutTitle(shown), time: time), at: 0)
        if entries.count > Self.maxEntries { entries.removeLast(entries.count - Self.maxEntries) }
    }

    package mutating func clear() { entries.removeAll() }

    /// The entries whose title or address holds every word of `query` (case ignored), newest first, at most
    /// `limit`. An empty query matches everything.
    package func matches(_ query: String, limit: Int = .max) -> [Entry] {
        let words = query.lowercased().split(whereSeparator: { $0.isWhitespace })
        var found: [Entry] = []
        for entry in entries where found.count < limit {
            let haystack = (entry.title + " " + AddressInput.displayString(entry.url)).lowercased()
            if words.allSatisfy({ haystack.contains($0) }) { found.append(entry) }
        }
        return found
    }

    // MARK: The file

    private struct FileFormat: Codable {
        var version: Int
        var entries: [FileEntry]
    }

    private struct FileEntry: Codable {
        var url: String
        var title: String
        var time: Double
    }

    package func encoded() -> Data {
        let file = FileFormat(version: Self.version, entries: entries.map {
            FileEntry(url: $0.url.absoluteString, title: $0.title, time: $0.time.isFinite ? $0.time : 0)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(file)) ?? Data("{\"entries\":[],\"version\":1}".utf8)
    }

    /// Reads a history file: an entry whose address is no longer usable is dropped; a file that is not a history
    /// is a failure with a message for the user.
    package static func decode(_ data: Data) -> Result<BrowsingHistory, SessionState.Failure> {
        let file: FileFormat
        do {
            file = try JSONDecoder().decode(FileFormat.self, from: data)
        } catch DecodingError.dataCorrupted {
            return .failure(SessionState.Failure(description: "it is not valid JSON"))
        } catch {
            return .failure(SessionState.Failure(description: "it is not a history file"))
        }
        guard file.version <= version else {
            return .failure(SessionState.Failure(description: "it was written by a newer version (format \(file.version))"))
        }
        var history = BrowsingHistory()
        var seen = Set<URL>()
        for saved in file.entries where history.entries.count < maxEntries {
            guard saved.url.utf8.count <= maxURLBytes, let url = SessionState.usableURL(saved.url),
                  seen.insert(url).inserted else { continue }
            history.entries.append(Entry(url: url, title: SessionState.cutTitle(saved.title),
                                         time: saved.time.isFinite ? saved.time : 0))
        }
        return .success(history)
    }
}
