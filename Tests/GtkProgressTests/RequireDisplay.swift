import Foundation
import GtkProgress
import XCTest

/// Opens the display for a GTK test. Without one, `swift test` on a machine with no X server skips the test, as
/// a developer expects; `make test` runs the tests under Xvfb (scripts/xvfb-session) and sets
/// GTKPROGRESS_REQUIRE_DISPLAY=1, and there a display that cannot be opened fails the test, so a broken Xvfb
/// cannot turn every GTK test into a skip that passes.
@MainActor
func requireDisplay() throws {
    if Display.initialize() { return }
    guard ProcessInfo.processInfo.environment["GTKPROGRESS_REQUIRE_DISPLAY"] == "1" else {
        throw XCTSkip("no display (make test runs these under Xvfb)")
    }
    throw NoDisplay(display: ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset")
}

/// What a GTK test throws when it must run and cannot: an error, which XCTest records as a failure, not a skip.
struct NoDisplay: Error, CustomStringConvertible {
    var display: String
    var description: String {
        "no display (DISPLAY=\(display)), though GTKPROGRESS_REQUIRE_DISPLAY=1 says the GTK tests must run"
    }
}
