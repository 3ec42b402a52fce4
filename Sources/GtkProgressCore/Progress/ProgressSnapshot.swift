/// What the bar shows at one instant.
package struct ProgressSnapshot: Equatable, Sendable {
    /// Which colour the bar is painted in.
    package enum Tone: Equatable, Sendable {
        /// The theme's accent: a load under way or finished.
        case normal
        /// The theme's error colour: the load failed, so its end must not look like success.
        case failure
    }

    /// The filled share of the bar's width, 0…1.
    package var fraction: Double
    /// 1 while loading; falls to 0 during the fade.
    package var opacity: Double
    /// Whether the bar is on screen at all; when false nothing is drawn and nothing needs ticking.
    package var visible: Bool
    package var tone: Tone

    package init(fraction: Double, opacity: Double, visible: Bool, tone: Tone = .normal) {
        self.fraction = fraction; self.opacity = opacity; self.visible = visible; self.tone = tone
    }

    /// The bar at rest: width 0, hidden (the WeChat article's reset).
    package static let hidden = ProgressSnapshot(fraction: 0, opacity: 0, visible: false)
}
