// swift-tools-version:6.0
import PackageDescription

// The layers, each a target, so the compiler keeps the data flowing one way:
//   GtkProgressCore     pure Swift + gumbo + uchardet: curves, tracker, navigation model and policy, document model
//   GtkProgressLoading  libcurl on the GLib main loop (no GTK): the page loader, curve and data files
//   GtkProgress         the GTK shell: wrappers, views, the browser window (the library other apps use)
//   app                 `gtkprogress`: the command line; never loads GTK, runs the viewer for windows
//   viewer              `gtkprogress-viewer`: the desktop application
let package = Package(
    name: "GtkProgress",
    products: [
        .library(name: "GtkProgress", targets: ["GtkProgress"]),
        .library(name: "GtkProgressCore", targets: ["GtkProgressCore"]),
        .executable(name: "gtkprogress", targets: ["app"]),
        .executable(name: "gtkprogress-viewer", targets: ["viewer"]),
    ],
    targets: [
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CGumbo", path: "Sources/CGumbo", pkgConfig: "gumbo",
                       providers: [.apt(["libgumbo-dev"])]),
        .systemLibrary(name: "CUchardet", path: "Sources/CUchardet", pkgConfig: "uchardet",
                       providers: [.apt(["libuchardet-dev"])]),
        .target(name: "GtkProgressCore", dependencies: ["CGumbo", "CUchardet"], path: "Sources/GtkProgressCore"),
        .target(name: "GtkProgressLoading", dependencies: ["GtkProgressCore", "CCurl", "CGLib"],
                path: "Sources/GtkProgressLoading"),
        .target(name: "GtkProgress", dependencies: ["GtkProgressCore", "GtkProgressLoading", "CGtk"],
                path: "Sources/GtkProgress"),
        .executableTarget(name: "app", dependencies: ["GtkProgressCore", "GtkProgressLoading"], path: "Sources/app"),
        .executableTarget(name: "viewer", dependencies: ["GtkProgress"], path: "Sources/viewer"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "GtkProgressCoreTests", dependencies: ["GtkProgressCore", "TestSupport"],
                    path: "Tests/GtkProgressCoreTests"),
        .testTarget(name: "GtkProgressTests", dependencies: ["GtkProgress", "GtkProgressLoading", "GtkProgressCore", "TestSupport"],
                    path: "Tests/GtkProgressTests"),
    ],
    swiftLanguageModes: [.v6]
)
