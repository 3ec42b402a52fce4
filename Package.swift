// swift-tools-version:6.0
import PackageDescription

// The layers, each a target, so the compiler keeps the data flowing one way:
//   GtkProgressCore     pure Swift + gumbo + uchardet: curves, tracker, navigation model and policy, document model
//   GtkProgressFiles    the files the programs read: curve files, the data folder, local pages (Foundation only)
//   GtkProgressLoading  libcurl on the GLib main loop (no GTK): the page loader
//   GtkProgress         the GTK shell: wrappers, views, the browser window (the library other apps use)
//   app                 `gtkprogress`: the command line; loads neither GTK nor libcurl, and execs one of:
//   viewer              `gtkprogress-viewer`: the desktop application
//   fetch               `gtkprogress-fetch`: --dump of a network address, --load-only
//   bar-demo            the load indicator alone over any content, with simulated loads (Examples/bar-demo)
//   Pageload, CPageload libpageload-1.so: the bar as a GObject widget (PageloadBar) for C, and through GObject
//                       Introspection for Python, GJS and Vala (Sources/CPageload/include/pageload.h)
let package = Package(
    name: "GtkProgress",
    products: [
        .library(name: "GtkProgress", targets: ["GtkProgress"]),
        .library(name: "GtkProgressCore", targets: ["GtkProgressCore"]),
        .executable(name: "gtkprogress", targets: ["app"]),
        .executable(name: "gtkprogress-viewer", targets: ["viewer"]),
        .executable(name: "gtkprogress-fetch", targets: ["fetch"]),
        .executable(name: "bar-demo", targets: ["bar-demo"]),
        .library(name: "pageload-1", type: .dynamic, targets: ["Pageload"]),
    ],
    targets: [
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        // libcurl's headers (libcurl4-openssl-dev); the library itself is opened with dlopen, see ccurl.h.
        .target(name: "CCurl", path: "Sources/CCurl"),
        .systemLibrary(name: "CGumbo", path: "Sources/CGumbo", pkgConfig: "gumbo",
                       providers: [.apt(["libgumbo-dev"])]),
        // uchardet's header (libuchardet-dev); the library is opened with dlopen, see cuchardet.h.
        .target(name: "CUchardet", path: "Sources/CUchardet"),
        .systemLibrary(name: "CIntl", path: "Sources/CIntl"),
        .target(name: "GtkProgressCore", dependencies: ["CGumbo", "CUchardet", "CIntl"], path: "Sources/GtkProgressCore"),
        .target(name: "GtkProgressFiles", dependencies: ["GtkProgressCore"], path: "Sources/GtkProgressFiles"),
        .target(name: "GtkProgressLoading", dependencies: ["GtkProgressCore", "GtkProgressFiles", "CCurl", "CGLib"],
                path: "Sources/GtkProgressLoading"),
        .target(name: "GtkProgress", dependencies: ["GtkProgressCore", "GtkProgressFiles", "GtkProgressLoading", "CGtk"],
                path: "Sources/GtkProgress", exclude: ["GTK/README.md"]),
        .executableTarget(name: "app", dependencies: ["GtkProgressCore", "GtkProgressFiles"], path: "Sources/app"),
        .executableTarget(name: "fetch", dependencies: ["GtkProgressCore", "GtkProgressFiles", "GtkProgressLoading"], path: "Sources/fetch"),
        .executableTarget(name: "viewer", dependencies: ["GtkProgress"], path: "Sources/viewer"),
        // The library's example: public API only (Tests/adopter builds the same file from outside the package).
        .executableTarget(name: "bar-demo", dependencies: ["GtkProgress"], path: "Examples/bar-demo"),
        // The GObject boilerplate in C; the bar in Swift. The library carries the Swift runtime (-static-stdlib), so
        // a Python or GJS process needs no toolchain; its soname has the API version, and the version script
        // exports the C interface only (see build-aux/pageload.map). The static Foundation needs its two helper
        // archives named (an executable gets them from the driver, a shared library does not); the toolchain's lld
        // links it, as in release builds, since GNU ld warns of the mktemp inside Foundation at every debug link.
        .target(name: "CPageload", dependencies: ["CGtk"], path: "Sources/CPageload"),
        .target(name: "Pageload", dependencies: ["CPageload", "GtkProgress", "CGtk"], path: "Sources/Pageload",
                linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld",
                                               "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
                                               "-Xlinker", "-soname=libpageload-1.so.0",
                                               "-Xlinker", "--version-script=\(Context.packageDirectory)/build-aux/pageload.map"])]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GtkProgressCoreTests", dependencies: ["GtkProgressCore", "TestSupport"],
                    path: "Tests/GtkProgressCoreTests"),
        .testTarget(name: "GtkProgressTests", dependencies: ["GtkProgress", "GtkProgressLoading", "GtkProgressFiles", "GtkProgressCore",
                                   "TestSupport"],
                    path: "Tests/GtkProgressTests"),
    ],
    swiftLanguageModes: [.v6]
)
