/// The thin load indicator at the top of the page: a Cairo-painted strip in the theme's accent colour (its error
/// colour for a failed load), overlaid so the page never shifts (GNOME Web's `ephy-embed.c` does the same). It
/// only paints the snapshots it is given; `LoadIndicator` decides what they are.
@MainActor
final class ProgressBarView {
    /// The widget to put in an `Overlay` (see `attach(to:)`).
    let widget: ProgressBar
    /// Adwaita's accent, for themes that define no `theme_selected_bg_color`.
    static let fallbackColor = RGBA(red: 0x35 / 255.0, green: 0x84 / 255.0, blue: 0xe4 / 255.0)
    /// Adwaita's `error_color` (GTK 3), for themes that define none.
    static let fallbackFailureColor = RGBA(red: 0xcc / 255.0, green: 0, blue: 0)

    /// What is painted now.
    private(set) var shown: ProgressSnapshot = .hidden
    /// Colours chosen by the application; nil follows the theme.
    var color: RGBA? { didSet { repaintStrip() } }
    var failureColor: RGBA? { didSet { repaintStrip() } }
    /// The bar's height in logical pixels.
    var height = ProgressBarGeometry.height {
        didSet { widget.setExactHeight(height) }
    }

    init() {
        widget = ProgressBar()
        widget.setExactHeight(height)
        widget.setAlignment(horizontal: .fill, vertical: .start)
        widget.setExpand(horizontal: true)
        widget.setAccessible(name: L("Page load progress"))
        widget.onPaint { [weak self] cr in self?.paint(on: cr) }
        widget.hide()
    }

    /// Puts the bar at the top of `overlay`'s page; clicks fall through to the page below.
    func attach(to overlay: Overlay) {
        overlay.addOverlay(widget, passThrough: true)
    }

    /// Whether the theme wants motion (`gtk-enable-animations`).
    var animationsEnabled: Bool { widget.animationsEnabled }

    /// Shows `snapshot`, redrawing only what changed: the sliver of the strip the fill moved over, or the strip.
    func show(_ snapshot: ProgressSnapshot) {
        guard snapshot.visible else {
            if widget.isVisible { widget.hide() }
            shown = .hidden
            return
        }
        if !widget.isVisible { widget.show() }
        guard snapshot != shown else { return }
        let before = shown
        shown = snapshot
        guard before.visible, before.opacity == snapshot.opacity, before.tone == snapshot.tone else {
            repaintStrip()
            return
        }
        // A slow glide moves less than a pixel in some frames: then there is nothing to draw.
        let (old, new) = (geometry(before), geometry(snapshot))
        guard old != new else { return }
        if let columns = ProgressBarGeometry.changedColumns(from: old, to: new) {
            widget.queueDraw(x: columns.x, y: 0, width: columns.width, height: height)
        } else {
            repaintStrip()
        }
    }

    /// The value screen readers read on demand (whole percents are enough for them); it is never announced.
    func setAccessibleValue(_ fraction: Double) {
        if (fraction * 100).rounded() != (widget.fraction * 100).rounded() { widget.setFractionQuietly(fraction) }
    }

    private func repaintStrip() {
        widget.queueDraw(x: 0, y: 0, width: widget.width, height: height)
    }

    private func geometry(_ snapshot: ProgressSnapshot) -> ProgressBarGeometry {
        ProgressBarGeometry(fraction: snapshot.fraction, barWidth: widget.width, scale: widget.scaleFactor,
                            rightToLeft: widget.isRightToLeft, height: height)
    }

    private func paint(on cr: CairoContext) {
        let color: RGBA
        switch shown.tone {
        case .normal: color = self.color ?? Self.color(theme: widget.themeColor("theme_selected_bg_color"),
                                                      page: widget.themeColor("theme_base_color"))
        case .failure: color = failureColor ?? widget.themeColor("error_color") ?? Self.fallbackFailureColor
        }
        Self.paint(shown, on: cr, barWidth: widget.width, scale: widget.scaleFactor,
                   rightToLeft: widget.isRightToLeft,
                   color: color, height: height)
    }

    /// The theme's accent, moved just far enough to keep the 3:1 contrast WCAG asks of graphics on the page
    /// it is drawn over.
    static func color(theme: RGBA?, page: RGBA?) -> RGBA {
        let accent = theme ?? fallbackColor
        guard let page else { return accent }
        return RGBA(Contrast.readable(accent.contrastColor, on: page.contrastColor, minimum: Contrast.graphics))
    }

    /// The whole look of the bar: one pixel-aligned rectangle in a solid colour, faded by the snapshot's opacity.
    static func paint(_ snapshot: ProgressSnapshot, on cr: CairoContext, barWidth: Int, scale: Int,
                      rightToLeft: Bool, color: RGBA, height: Int = ProgressBarGeometry.height) {
        guard snapshot.visible, snapshot.opacity > 0 else { return }
        let rect = ProgressBarGeometry(fraction: snapshot.fraction, barWidth: barWidth, scale: scale,
                                       rightToLeft: rightToLeft, height: height)
        guard !rect.isEmpty else { return }
        cr.setColor(color, alpha: snapshot.opacity)
        cr.rectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        cr.fill()
    }
}
