/// The page's text size as a factor of the theme's font size, moved in the steps Firefox and Chromium use
/// (Firefox's `toolkit.zoomManager.zoomValues`), so each Ctrl+plus makes a visible but small change.
package struct ZoomLevel: Equatable, Sendable, CustomStringConvertible {
    package static let steps: [Double] = [0.3, 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.2, 1.33, 1.5, 1.7, 2.0, 2.4, 3.0]
    package static let normal = ZoomLevel(factor: 1)

    package let factor: Double

    /// The step nearest to `factor` (a saved or hand-edited value), within the range of the steps.
    package init(factor: Double) {
        let value = factor.isFinite ? factor : 1
        self.factor = Self.steps.min { abs($0 - value) < abs($1 - value) } ?? 1
    }

    private var index: Int { Self.steps.firstIndex(of: factor) ?? 5 }

    package var zoomedIn: ZoomLevel { ZoomLevel(factor: Self.steps[min(index + 1, Self.steps.count - 1)]) }
    package var zoomedOut: ZoomLevel { ZoomLevel(factor: Self.steps[max(index - 1, 0)]) }
    package var isLargest: Bool { index == Self.steps.count - 1 }
    package var isSmallest: Bool { index == 0 }

    /// As the status line shows it: "120%".
    package var description: String { "\(Int((factor * 100).rounded()))%" }
}
