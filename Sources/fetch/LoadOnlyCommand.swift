import FoundationEssentials
import GtkProgressCore
import GtkProgressLoading

/// `gtkprogress --load-only URL`: the loader alone, body dropped as it arrives; prints what came and how fast.
/// It measures the network path the viewer uses, without the document cap or any rendering.
@MainActor
enum LoadOnlyCommand {
    static func run(target: String, throttle: Int64?) -> Int32 {
        guard case .success(let url) = AddressInput.url(from: target,
                                                        workingDirectory: FileManager.default.currentDirectoryPath) else {
            printError(L("“%@” is not a web address or a file path.", target))
            return 2
        }
        var options = LoaderOptions()
        options.keepsBody = false
        options.throttleBytesPerSecond = throttle
        if let note = options.throttleNote(for: url) { printError(note) }
        let loader = PageLoader(options: options)
        let start = MainLoop.monotonicSeconds()
        var received: Int64 = 0
        var outcome: Int32?
        loader.load(LoadRequest(url: url)) { event in
            switch event {
            case .response, .milestone: break
            case .progress(let bytes, _): received = bytes
            case .finished(let page):
                let seconds = max(MainLoop.monotonicSeconds() - start, 1e-6)
                let rate = Double(received) / seconds / 1_000_000
                print("\(received) bytes in \(seconds.formatted(decimals: 3)) s (\(rate.formatted(decimals: 1)) MB/s), "
                      + "HTTP \(page.status)")
                outcome = 0
            case .failed(let error):
                printError(error.message)
                outcome = 1
            }
        }
        while outcome == nil { MainLoop.iterate(blocking: true) }
        return outcome!
    }
}
