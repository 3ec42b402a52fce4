// swift-tools-version:6.0
import PackageDescription

// An application outside the GtkProgress package: it depends on the library by path and builds the example
// (Examples/bar-demo, linked here) against the public API alone. `make test` builds it, so a change that breaks
// adopters fails there.
let package = Package(
    name: "adopter",
    dependencies: [.package(name: "GtkProgress", path: "../..")],
    targets: [
        .executableTarget(name: "adopter-demo", dependencies: [.product(name: "GtkProgress", package: "GtkProgress")],
                          path: "Sources/bar-demo"),
    ],
    swiftLanguageModes: [.v6]
)
