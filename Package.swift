// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "GtkProgress",
    products: [
        .library(name: "GtkProgress", targets: ["GtkProgress"]),
        .executable(name: "gtkprogress", targets: ["app"]),
    ],
    targets: [
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CGumbo", path: "Sources/CGumbo", pkgConfig: "gumbo",
                       providers: [.apt(["libgumbo-dev"])]),
        .target(name: "GtkProgress", dependencies: ["CGtk", "CCurl", "CGumbo"],
                path: "Sources/GtkProgress"),
        .executableTarget(name: "app", dependencies: ["GtkProgress"], path: "Sources/app"),
        .testTarget(name: "GtkProgressTests", dependencies: ["GtkProgress"], path: "Tests/GtkProgressTests"),
    ],
    swiftLanguageModes: [.v6]
)
