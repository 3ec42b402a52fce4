import FoundationEssentials

/// The command line of `gtkprogress`, parsed without a display.
package struct CommandLineOptions: Equatable, Sendable {
    package enum Action: Equatable, Sendable {
        case browse
        case help
        case version
        case printCurve(String)
        case dump
        case loadOnly
    }

    package var action: Action = .browse
    /// `--curve NAME|PATH` for the window.
    package var curve: String?
    /// `--finish-at SECONDS` and `--until SECONDS` for `--print-curve`.
    package var finishAt: Double?
    package var until: Double?
    /// `--frames` for `--print-curve`: what is painted at 60 frames a second rather than the model's ticks.
    package var frames = false
    /// `--throttle BYTES_PER_SECOND`.
    package var throttle: Int64?
    /// `--new-session`: start with the welcome page instead of the windows of the last session.
    package var newSession = false
    /// `--no-images`: windows show alt text in place of images and fetch none (the reader can turn them on).
    package var noImages = false
    /// `--private`: nothing is recorded (history, session) and the last session is not restored.
    package var isPrivate = false
    /// `--width COLUMNS` for `--dump`; nil leaves the choice to `DumpWidth`.
    package var width: Int?
    /// `--no-css`: pages without their author styles.
    package var noCSS = false
    /// URLs or files to open (or, with `--dump`, the one to print).
    package var targets: [String] = []

    package static let usage = """
    Usage: gtkprogress [OPTION…] [URL|FILE…]
    A page viewer whose progress bar makes loading feel fast.

      --curve NAME|PATH          progress curve: wechat (default), smooth, real, or a curve file
      --throttle BYTES_PER_SEC   limit download speed, to watch the bar on a fast network
      --new-session              start with the welcome page, not the last session's windows
      --no-images                show alt text in place of images and fetch none
      --private                  record nothing: no history, no session
      --print-curve NAME|PATH    print the curve's timeline as "t fraction opacity" lines and exit
        --finish-at SECONDS      with --print-curve: the load finishes at this time
        --until SECONDS          with --print-curve: stop printing at this time
        --frames                 with --print-curve: what is painted at 60 frames a second, not the 0.1 s model
      --dump URL|FILE            print the page as text, links numbered, and exit
        --width COLUMNS          with --dump: wrap text and fit tables to this many columns
                                 (default: the terminal's width, or 80 when not printing to a terminal)
      --no-css                   show pages without their own style sheets
      --load-only URL            download without keeping or showing the body; print size and speed
      --help                     show this help and exit
      --version                  show the version and exit

    With no URL the windows of the last session come back (their pages fetched again), or the welcome
    page opens; each URL given opens in a window of its own, without restoring the session. The session
    is kept in $XDG_STATE_HOME/gtkprogress/session.json (~/.local/state/gtkprogress/session.json), the
    history and the bookmarks in $XDG_DATA_HOME/gtkprogress (~/.local/share/gtkprogress). A folder shows
    its listing; words that are no address are looked up in the history and the bookmarks.
    localhost, *.localhost and IP addresses typed without a scheme get http://, other hosts https://.

    Keys: Alt+Left back, Alt+Right forward, F5/Ctrl+R reload, Escape stop, Ctrl+L address entry,
    Tab/Shift+Tab next/previous link, Return follow it (Shift+Return or Ctrl+Return: in a new window),
    Space/Shift+Space page down/up, Home/End top/bottom, Ctrl+F find (Return/F3/Ctrl+G next, Shift for
    previous, Escape closes), Ctrl+plus/minus/0 or Ctrl+scroll text size, Ctrl+N new window, Ctrl+W close
    window, Ctrl+Q close every window (the next start brings them all back), Ctrl+S save a file not shown as
    text, Ctrl+H history, Ctrl+D bookmark the page, F10 main menu, Ctrl+? or F1 every shortcut. Middle-click
    or Ctrl+click opens a link in a new window.
    """

    package static let version = "gtkprogress 0.1.0"

    package struct Failure: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    package static func parse(_ arguments: [String]) -> Result<CommandLineOptions, Failure> {
        var options = CommandLineOptions()
        var i = 0
        func value(_ flag: String) -> Result<String, Failure> {
            i += 1
            guard i < arguments.count else { return .failure(Failure(description: L("%@ needs a value.", flag))) }
            return .success(arguments[i])
        }
        func number(_ flag: String) -> Result<Double, Failure> {
            value(flag).flatMap { text in
                guard let n = Double(text), n.isFinite, n >= 0 else {
                    return .failure(Failure(description: L("%@ needs a number of seconds, not “%@”.", flag, text)))
                }
                // Each tenth of a second is a line: 1e308 would be printed until the disk or memory ran out.
                guard n <= CurveTimeline.longest else {
                    return .failure(Failure(description: L("%@ needs a number of seconds from 0 to %ld, not “%@”.", flag,
                                                            Int(CurveTimeline.longest), text)))
                }
                return .success(n)
            }
        }
        var onlyTargets = false
        while i < arguments.count {
            let argument = arguments[i]
            if onlyTargets || !argument.hasPrefix("-") || argument == "-" {
                options.targets.append(argument)
                i += 1
                continue
            }
            var flag = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<eq]); inline = String(argument[argument.index(after: eq)...])
            }
            if let inline {
                // Treat `--flag=value` as `--flag value`.
                var rest = Array(arguments[(i + 1)...])
                rest.insert(inline, at: 0)
                return parse(Array(arguments[..<i]) + [flag] + rest)
            }
            switch flag {
            case "--":
                onlyTargets = true
            case "-h", "--help":
                options.action = .help
            case "--version":
                if options.action != .help { options.action = .version }
            case "--curve":
                switch value(flag) { case .success(let v): options.curve = v; case .failure(let f): return .failure(f) }
            case "--print-curve":
                switch value(flag) {
                case .success(let v): if options.action == .browse { options.action = .printCurve(v) }
                case .failure(let f): return .failure(f)
                }
            case "--finish-at":
                switch number(flag) { case .success(let v): options.finishAt = v; case .failure(let f): return .failure(f) }
            case "--until":
                switch number(flag) { case .success(let v): options.until = v; case .failure(let f): return .failure(f) }
            case "--frames":
                options.frames = true
            case "--throttle":
                switch value(flag) {
                case .success(let v):
                    guard let n = Int64(v), n > 0 else {
                        return .failure(Failure(description: L("--throttle needs a positive number of bytes per second, not “%@”.", v)))
                    }
                    options.throttle = n
                case .failure(let f): return .failure(f)
                }
            case "--new-session":
                options.newSession = true
            case "--no-images":
                options.noImages = true
            case "--no-css":
                options.noCSS = true
            case "--private":
                options.isPrivate = true
            case "--width":
                switch value(flag) {
                case .success(let v):
                    guard let n = Int(v), n >= DumpWidth.narrowest, n <= DumpWidth.widest else {
                        return .failure(Failure(description: "--width needs a number of columns from \(DumpWidth.narrowest) to \(DumpWidth.widest), not “\(v)”."))
                    }
                    options.width = n
                case .failure(let f): return .failure(f)
                }
            case "--dump":
                if options.action == .browse { options.action = .dump }
            case "--load-only":
                if options.action == .browse { options.action = .loadOnly }
            default:
                return .failure(Failure(description: L("Unknown option “%@”. Try gtkprogress --help.", argument)))
            }
            i += 1
        }
        if options.action == .dump && options.targets.count != 1 {
            return .failure(Failure(description: L("--dump needs exactly one URL or file.")))
        }
        if options.action == .loadOnly && options.targets.count != 1 {
            return .failure(Failure(description: L("--load-only needs exactly one URL.")))
        }
        return .success(options)
    }
}

/// How wide `--dump` lays its text out.
package enum DumpWidth {
    package static let narrowest = 20
    package static let widest = 10_000
    /// A terminal's classic width, used for pipes and files.
    package static let standard = Document.defaultLayoutWidth

    /// `--width` when given; else, when standard output is a terminal, its width (from `TIOCGWINSZ`, then the
    /// `COLUMNS` variable); else 80. A width out of range is brought into it.
    package static func choose(option: Int?, outputIsTerminal: Bool, terminalColumns: Int?,
                              columnsVariable: String?) -> Int {
        if let option { return clamp(option) }
        guard outputIsTerminal else { return standard }
        if let columns = terminalColumns, columns > 0 { return clamp(columns) }
        if let text = columnsVariable, let columns = Int(text.trimmed()), columns > 0 {
            return clamp(columns)
        }
        return standard
    }

    private static func clamp(_ columns: Int) -> Int { min(max(columns, narrowest), widest) }
}
