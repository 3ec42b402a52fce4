import FoundationEssentials
import GtkProgress

/// The desktop application: one window, opened on the welcome page or the URLs it is given, also by a second
/// launch or the desktop's `open` when a session bus exists.
final class ViewerApp {
    private let options: CommandLineOptions
    private var browser: Browser?
    private var curve = ProgressCurve.default
    private var startupMessage: String?
    private var initialURIs: [String] = []

    init(options: CommandLineOptions) { self.options = options }

    func run() -> Int32 {
        guard Display.initialize() else {
            printError("cannot open a display; set DISPLAY or run it in a desktop session (--dump works without one)")
            return 1
        }
        if let name = options.curve {
            do { curve = try ProgressCurve.load(nameOrPath: name) } catch {
                startupMessage = "\(error) Using the wechat curve."
                printError(startupMessage!)
            }
        }
        // Targets become absolute URLs here, so relative paths and bare host names mean what the user meant.
        var uris: [String] = []
        for target in options.targets {
            switch AddressInput.url(from: target, workingDirectory: FileManager.default.currentDirectoryPath) {
            case .success(let url): uris.append(url.absoluteString)
            case .failure(let failure):
                startupMessage = failure.description
                printError(failure.description)
            }
        }
        var application = Application(id: "org.gtkprogress.Viewer")
        if !application.register() {
            application = Application(id: "org.gtkprogress.Viewer", unique: false)
        }
        application.onActivate { [unowned self, unowned application] in
            self.window(in: application).chrome.window.present()
        }
        application.onOpen { [unowned self, unowned application] uris in
            let browser = self.window(in: application)
            browser.open(uris.compactMap { URL(string: $0) }, kind: .commandLine)
            browser.chrome.window.present()
        }
        initialURIs = uris
        return application.run(arguments: [CommandLine.arguments[0]] + uris)
    }

    private func window(in application: Application) -> Browser {
        if let browser { return browser }
        var loaderOptions = LoaderOptions()
        loaderOptions.throttleBytesPerSecond = options.throttle
        let browser = Browser(window: application.makeWindow(), curve: curve, loaderOptions: loaderOptions)
        self.browser = browser
        browser.chrome.window.showAll()
        if initialURIs.isEmpty {
            if let welcome = DataFiles.url("welcome.html") { browser.open(welcome, kind: .commandLine) }
        }
        if let startupMessage { browser.showNotice(startupMessage) }
        return browser
    }
}
