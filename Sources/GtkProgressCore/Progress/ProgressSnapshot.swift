/// What the bar shows at one instant.
public struct ProgressSnapshot: Equatable, Sendable {
    /// The filled share of the bar's width, 0…1.
    public var fraction: Double
    /// 1 while loading; falls to 0 during the fade.
    public var opacity: Double
    /// Whether the bar is on screen at all; when false nothing is drawn and nothing needs ticking.
    public var visible: Bool

    public init(fraction: Double, opacity: Double, visible: Bool) {
        self.fraction = fraction; self.opacity = opacity; self.visible = visible
    }

    /// The bar at rest: width 0, hidden (the WeChat article's reset).
    public static let hidden = ProgressSnapshot(fraction: 0, opacity: 0, visible: false)
}
