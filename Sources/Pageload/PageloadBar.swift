// The Swift part of the Pageload library: the functions Sources/CPageload/pageload.c calls for each PageloadBar,
// each driving one `LoadIndicator`. They are C functions (`@_cdecl`) declared in pageload-impl.h; the library's
// version script (build-aux/pageload.map) keeps them, and the whole Swift runtime linked into the library, out of its
// exported symbols, so that a process may load it beside other Swift code.
import CPageload
internal import CGtk
import GtkProgress

/// One bar's indicator and what was last reported to the GObject.
@MainActor
final class PageloadImpl {
    let indicator: LoadIndicator
    /// The PageloadBar (not retained: it owns this object and frees it in its dispose).
    let owner: UnsafeMutablePointer<GtkWidget>
    private var wasActive = false

    init(owner: UnsafeMutablePointer<GtkWidget>) {
        self.owner = owner
        indicator = LoadIndicator()
        indicator.attach(toContainer: UnsafeMutableRawPointer(owner))
        indicator.onUpdate = { [unowned self] in self.report() }
    }

    /// The fraction shown (0 when the bar is hidden), whether a load is under way, and whether the run just ended.
    var fraction: Double {
        let shown = indicator.snapshot
        return shown.visible ? shown.fraction : 0
    }

    private func report() {
        let active = indicator.isActive
        let ended = wasActive && !active
        wasActive = active
        // A screen reader hears the load once, when it starts and when it ends, as in the viewer.
        indicator.widget.isAccessibleBusy = indicator.isLoading
        pageload_impl_changed(owner, fraction, indicator.isLoading ? 1 : 0, ended ? 1 : 0)
    }

    static func from(_ pointer: UnsafeMutableRawPointer) -> PageloadImpl {
        Unmanaged<PageloadImpl>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// GTK is used from its main thread only; these are called there, by the GObject's methods.
/// `impl` is passed as its address: a pointer is not `Sendable`, though it never leaves the main thread here.
private func onBar<T: Sendable>(_ impl: UnsafeMutableRawPointer, _ body: @MainActor (PageloadImpl) -> T) -> T {
    let address = Int(bitPattern: impl)
    return MainActor.assumeIsolated { body(PageloadImpl.from(UnsafeMutableRawPointer(bitPattern: address)!)) }
}

@_cdecl("pageload_impl_new")
func pageloadImplNew(_ bar: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutableRawPointer {
    let owner = Int(bitPattern: bar)
    let impl = MainActor.assumeIsolated {
        Int(bitPattern: Unmanaged.passRetained(PageloadImpl(owner: UnsafeMutablePointer(bitPattern: owner)!)).toOpaque())
    }
    return UnsafeMutableRawPointer(bitPattern: impl)!
}

@_cdecl("pageload_impl_free")
func pageloadImplFree(_ impl: UnsafeMutableRawPointer) {
    onBar(impl) { object in
        object.indicator.onUpdate = nil
        object.indicator.cancel()
    }
    Unmanaged<PageloadImpl>.fromOpaque(impl).release()
}

@_cdecl("pageload_impl_start")
func pageloadImplStart(_ impl: UnsafeMutableRawPointer) { onBar(impl) { $0.indicator.start() } }

@_cdecl("pageload_impl_finish")
func pageloadImplFinish(_ impl: UnsafeMutableRawPointer) { onBar(impl) { $0.indicator.finish() } }

@_cdecl("pageload_impl_fail")
func pageloadImplFail(_ impl: UnsafeMutableRawPointer) { onBar(impl) { $0.indicator.fail() } }

@_cdecl("pageload_impl_cancel")
func pageloadImplCancel(_ impl: UnsafeMutableRawPointer) { onBar(impl) { $0.indicator.cancel() } }

@_cdecl("pageload_impl_real_progress")
func pageloadImplRealProgress(_ impl: UnsafeMutableRawPointer, _ received: Int64, _ expected: Int64) {
    onBar(impl) {
        // A length below 0 is unknown (the header's -1); bytes below 0 are none.
        $0.indicator.realProgress(received: max(0, received), expected: expected < 0 ? nil : expected)
    }
}

@_cdecl("pageload_impl_milestone")
func pageloadImplMilestone(_ impl: UnsafeMutableRawPointer, _ milestone: Int32) {
    // PageloadMilestone's values are LoadMilestone's cases in order; pageload.c checks the range.
    let all = LoadMilestone.allCases
    guard milestone >= 0, Int(milestone) < all.count else { return }
    onBar(impl) { $0.indicator.milestone(all[Int(milestone)]) }
}

@_cdecl("pageload_impl_set_curve")
func pageloadImplSetCurve(_ impl: UnsafeMutableRawPointer?, _ nameOrPath: UnsafePointer<CChar>,
                          _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    do {
        let curve = try ProgressCurve.load(nameOrPath: String(cString: nameOrPath))
        if let impl { onBar(impl) { $0.indicator.curve = curve } }
        return 0
    } catch {
        // The command line prints the same description (gtkprogress --print-curve).
        message.pointee = g_strdup("\(error)")
        let code: PageloadCurveError
        switch error.problem {
        case .noSuchPreset: code = PAGELOAD_CURVE_ERROR_NO_SUCH_PRESET
        case .unreadable: code = PAGELOAD_CURVE_ERROR_UNREADABLE
        default: code = PAGELOAD_CURVE_ERROR_INVALID
        }
        return Int32(code.rawValue) + 1
    }
}

@_cdecl("pageload_impl_fraction")
func pageloadImplFraction(_ impl: UnsafeMutableRawPointer) -> Double { onBar(impl) { $0.fraction } }

@_cdecl("pageload_impl_loading")
func pageloadImplLoading(_ impl: UnsafeMutableRawPointer) -> Int32 {
    onBar(impl) { $0.indicator.isLoading ? 1 : 0 }
}

@_cdecl("pageload_impl_set_color")
func pageloadImplSetColor(_ impl: UnsafeMutableRawPointer, _ color: UnsafePointer<GdkRGBA>?) {
    let rgba = color.map { RGBA(red: $0.pointee.red, green: $0.pointee.green, blue: $0.pointee.blue, alpha: $0.pointee.alpha) }
    onBar(impl) { $0.indicator.color = rgba }
}
