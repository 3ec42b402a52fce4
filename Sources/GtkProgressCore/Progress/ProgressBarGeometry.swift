/// Where the filled part of the bar goes, with its edges on device pixels so it stays crisp on a HiDPI screen
/// (a half-covered pixel would show as a blurred, lighter column or row).
package struct ProgressBarGeometry: Equatable, Sendable {
    /// The bar's default height in logical pixels (the WeChat article's 3 pt layer).
    package static let height = 3

    /// In logical coordinates; every edge is a whole number of device pixels.
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    /// The filled rectangle of a bar `barWidth` logical pixels wide at `scale` device pixels per logical one.
    /// Right-to-left, the bar grows from the right edge, as reading does.
    package init(fraction: Double, barWidth: Int, scale: Int, rightToLeft: Bool, height: Int = Self.height) {
        let scale = max(scale, 1)
        let deviceWidth = Double(barWidth * scale)
        let filled = (min(max(fraction, 0), 1) * deviceWidth).rounded()
        width = filled / Double(scale)
        self.height = Double(height)
        x = rightToLeft ? (deviceWidth - filled) / Double(scale) : 0
        y = 0
    }

    package var isEmpty: Bool { width <= 0 }

    /// The columns (in whole logical pixels) that differ between two fills of the same bar, when only the fill
    /// moved: a frame of a glide repaints that sliver rather than the whole strip. Nil when the two do not share
    /// an edge (then the whole strip changes).
    package static func changedColumns(from old: ProgressBarGeometry, to new: ProgressBarGeometry) -> (x: Int, width: Int)? {
        let span: (Double, Double)
        if old.isEmpty || new.isEmpty {
            return nil
        } else if old.x == new.x {
            span = (min(old.x + old.width, new.x + new.width), max(old.x + old.width, new.x + new.width))
        } else if old.x + old.width == new.x + new.width {
            span = (min(old.x, new.x), max(old.x, new.x))
        } else {
            return nil
        }
        let left = Int(span.0.rounded(.down)), right = Int(span.1.rounded(.up))
        return (left, right - left)
    }
}
