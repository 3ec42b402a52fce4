import Foundation
@testable import GtkProgressCore

/// The shipped presets, read from the source tree's `data/curves/` (the core itself reads no files).
func preset(_ name: String) throws -> ProgressCurve {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/curves/\(name).json")
    return try ProgressCurve.decode(Data(contentsOf: url), file: url.path)
}
