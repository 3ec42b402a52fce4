/// The thin load indicator at the top of the page: a 3 px Cairo-painted strip in the theme's accent colour,
/// overlaid so the page never shifts (GNOME Web's `ephy-embed.c` does the same). It only paints the snapshots it
/// is given; `LoadIndicator` decides what they are.
public final class ProgressBarView {
    /// The widget to put in an `Overlay` (see `attach(to:)`).
    public let widget: ProgressBar
    /// Adwaita's accent, for themes that define no `theme_selected_bg_color`.
    public static let fallbackColor = RGBA(red: 0x35 / 255.0, green: 0x84 / 255.0, blue: 0xe4 / 255.0)

    /// What is painted now.
    public private(set) var shown: ProgressSnapshot = .hidden

    public init() {
        widget = ProgressBar()
        widget.setExactHeight(ProgressBarGeometry.height)
        widget.setAlignment(horizontal: .fill, vertical: .start)
        widget.setExpand(horizontal: true)
        widget.setAccessible(name: "Page load progress")
        widget.onPaint { [weak self] cr in self?.paint(on: cr) }
        widget.hide()
    }

    /// Puts the bar at the top of `overlay`'s page; clicks fall through to the page below.
    public func attach(to overlay: Overlay) {
        overlay.addOverlay(widget, passThrough: true)
    }

    /// Whether the theme wants motion (`gtk-enable-animations`).
    public var animationsEnabled: Bool { widget.animationsEnabled }

    /// Shows `snapshot`, redrawing only the bar's strip and only when what it shows changed.
    public func show(_ snapshot: ProgressSnapshot) {
        guard snapshot.visible else {
            if widget.isVisible { widget.hide() }
            shown = .hidden
            return
        }
        if !widget.isVisible { widget.show() }
        guard snapshot != shown else { return }
        // Assistive technologies hear every change of the fraction; whole percents are enough for them.
        if (snapshot.fraction * 100).rounded() != (widget.fraction * 100).rounded() { widget.fraction = snapshot.fraction }
        widget.queueDraw(x: 0, y: 0, width: widget.width, height: ProgressBarGeometry.height)
        shown = snapshot
    }

    private func paint(on cr: CairoContext) {
        Self.paint(shown, on: cr, barWidth: widget.width, scale: widget.scaleFactor,
                   rightToLeft: widget.isRightToLeft,
                   color: Self.color(theme: widget.themeColor("theme_selected_bg_color"),
                                     page: widget.themeColor("theme_base_color")))
    }

    /// The theme's accent, moved just far enough to keep the 3:1 contrast WCAG asks of graphics on the page
    /// it is drawn over.
    static func color(theme: RGBA?, page: RGBA?) -> RGBA {
        let accent = theme ?? fallbackColor
        guard let page else { return accent }
        return RGBA(Contrast.readable(accent.contrastColor, on: page.contrastColor, minimum: Contrast.graphics))
    }

    /// The whole look of the bar: one pixel-aligned rectangle in a solid colour, faded by the snapshot's opacity.
    public static func paint(_ snapshot: ProgressSnapshot, on cr: CairoContext, barWidth: Int, scale: Int,
                             rightToLeft: Bool, color: RGBA) {
        guard snapshot.visible, snapshot.opacity > 0 else { return }
        let rect = ProgressBarGeometry(fraction: snapshot.fraction, barWidth: barWidth, scale: scale,
                                       rightToLeft: rightToLeft)
        guard !rect.isEmpty else { return }
        cr.setColor(color, alpha: snapshot.opacity)
        cr.rectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        cr.fill()
    }
}
