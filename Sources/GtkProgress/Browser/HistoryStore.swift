import FoundationEssentials
import GtkProgressFiles

/// The history every window shares: read once off the main loop, recorded to on every committed navigation, and
/// saved as the session is (atomic, off the main loop, half a second after the last change; a damaged file set
/// aside). A private store (`--private`) records nothing and reads nothing.
@MainActor
package final class HistoryStore {
    package private(set) var history = BrowsingHistory()
    private let file: SessionFile?
    package let isPrivate: Bool
    /// Saving starts once the file has been read (or found missing or damaged), so it is never overwritten unread.
    private var loaded = false
    private var saveTimer: MainLoopTimer?
    /// Visits made before the file was read: recorded on top of it once it has been.
    private var early: [BrowsingHistory.Entry] = []
    /// The history changed (the History window lists it again).
    package var onChange: [() -> Void] = []
    /// A message for the reader (a damaged file set aside, a save that failed), said once.
    package var onProblem: ((String) -> Void)?
    private var problemSaid = false

    package init(file: SessionFile?, isPrivate: Bool) {
        self.file = isPrivate ? nil : file
        self.isPrivate = isPrivate
    }

    /// Reads the file in the background; `done` runs on the main loop once the history is in.
    package func load(_ done: @escaping () -> Void = {}) {
        guard let file else {
            loaded = true
            return done()
        }
        BackgroundWork.run({ () -> (BrowsingHistory?, String?) in
            switch file.readData() {
            case .missing: return (nil, nil)
            case .damaged(let message): return (nil, message + Self.aside(file))
            case .data(let data):
                switch BrowsingHistory.decode(data) {
                case .success(let history): return (history, nil)
                case .failure(let failure):
                    return (nil, "The saved history \(file.url.path) was not read: \(failure.description)." + Self.aside(file))
                }
            }
        }) { [weak self] result in
            guard let self else { return }
            if let history = result.0 { self.history = history }
            for entry in self.early.reversed() { self.history.record(url: entry.url, title: entry.title, time: entry.time) }
            self.early = []
            self.loaded = true
            if let problem = result.1 { self.say(problem) }
            self.changed()
            done()
        }
    }

    nonisolated private static func aside(_ file: SessionFile) -> String {
        file.setAside().map { " It was kept as \($0)." } ?? ""
    }

    package func record(url: URL, title: String?) {
        guard !isPrivate else { return }
        let now = Date().timeIntervalSince1970
        guard loaded else {
            early.append(BrowsingHistory.Entry(url: url, title: title ?? "", time: now))
            return
        }
        history.record(url: url, title: title, time: now)
        changed()
    }

    package func clear() {
        early = []
        history.clear()
        changed()
    }

    private func changed() {
        for handler in onChange { handler() }
        guard loaded, file != nil, saveTimer == nil else { return }
        saveTimer = MainLoopTimer(milliseconds: 500, name: "gtkprogress history save") { [weak self] in
            guard let self else { return false }
            self.saveTimer = nil
            self.save()
            return false
        }
    }

    private func save() {
        guard let file else { return }
        let history = self.history
        // Encoded off the main loop too: two thousand entries take milliseconds.
        BackgroundWork.run({ history.encoded() }) { [weak self] data in
            file.save(data) { problem in
                MainLoop.post { self?.say(problem) }
            }
        }
    }

    /// When the viewer quits: whatever is pending is written before the process ends.
    package func saveNow() {
        guard saveTimer != nil, let file else { return }
        saveTimer = nil
        if let problem = file.saveAndWait(history.encoded()) { StandardStreams.error("gtkprogress: " + problem + "\n") }
    }

    private func say(_ problem: String) {
        guard !problemSaid else { return }
        problemSaid = true
        StandardStreams.error("gtkprogress: " + problem + "\n")
        onProblem?(problem)
    }
}
