/// Where the filled part of the bar goes, with its edges on device pixels so it stays crisp on a HiDPI screen
/// (a half-covered pixel would show as a blurred, lighter column or row).
public struct ProgressBarGeometry: Equatable, Sendable {
    /// The bar's height in logical pixels (the WeChat article's 3 pt layer).
    public static let height = 3

    /// In logical coordinates; every edge is a whole number of device pixels.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// The filled rectangle of a bar `barWidth` logical pixels wide at `scale` device pixels per logical one.
    /// Right-to-left, the bar grows from the right edge, as reading does.
    public init(fraction: Double, barWidth: Int, scale: Int, rightToLeft: Bool) {
        let scale = max(scale, 1)
        let deviceWidth = Double(barWidth * scale)
        let filled = (min(max(fraction, 0), 1) * deviceWidth).rounded()
        width = filled / Double(scale)
        height = Double(Self.height)
        x = rightToLeft ? (deviceWidth - filled) / Double(scale) : 0
        y = 0
    }

    public var isEmpty: Bool { width <= 0 }
}
