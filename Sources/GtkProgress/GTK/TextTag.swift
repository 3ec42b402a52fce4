internal import CGtk

/// A tag in a text buffer's tag table: how a run of text looks.
@MainActor
package final class TextTag {
    let tag: UnsafeMutablePointer<GtkTextTag>
    /// The tag's name in the table (tests find a tag by it; the views keep what a tag means themselves).
    package let name: String

    init(buffer: UnsafeMutablePointer<GtkTextBuffer>, name: String, look: Look) {
        tag = cgtk_text_buffer_create_tag(buffer, name)
        self.name = name
        apply(look)
    }

    /// Sets the text and background colours, or unsets them (nil: the theme's show through); `paragraph`: the
    /// background fills the lines the tag starts (`paragraph-background`), not only behind the text.
    package func setColors(foreground: RGBA?, background: RGBA?, paragraph: Bool = false) {
        let raw = UnsafeMutableRawPointer(tag)
        if let foreground { cgtk_object_set_string(raw, "foreground", foreground.hexString) }
        cgtk_object_set_int(raw, "foreground-set", foreground == nil ? 0 : 1)
        let name = paragraph ? "paragraph-background" : "background"
        if let background { cgtk_object_set_string(raw, name, background.hexString) }
        cgtk_object_set_int(raw, name + "-set", background == nil ? 0 : 1)
    }

    /// Whether the tag sets a text colour, a background behind the text and one across its lines (GtkTextTag's
    /// `foreground-set`, `background-set`, `paragraph-background-set`).
    package var colorsAreSet: (foreground: Bool, background: Bool, paragraphBackground: Bool) {
        (Self.flag(tag, "foreground-set"), Self.flag(tag, "background-set"), Self.flag(tag, "paragraph-background-set"))
    }

    /// A boolean property of a GtkTextTag (`underline-set`, `background-set`, …).
    static func flag(_ tag: UnsafeMutablePointer<GtkTextTag>, _ name: String) -> Bool {
        var value = GValue()
        g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN, a fundamental type (gtype.h).
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutablePointer<GObject>(OpaquePointer(tag)), name, &value)
        return g_value_get_boolean(&value) != 0
    }

    /// Below every other tag, so a look that must show (links, find matches, code) wins where both set a colour.
    package func setLowestPriority() { gtk_text_tag_set_priority(tag, 0) }

    /// Gives the tag every property `look` sets; the others stay as they were.
    package func apply(_ look: Look) {
        let raw = UnsafeMutableRawPointer(tag)
        func set(_ property: String, _ value: Int32?) {
            if let value { cgtk_object_set_int(raw, property, value) }
        }
        func set(_ property: String, _ value: Double?) {
            if let value { cgtk_object_set_double(raw, property, value) }
        }
        func set(_ property: String, _ value: String?) {
            if let value { cgtk_object_set_string(raw, property, value) }
        }
        // The properties of GtkTextTag <https://docs.gtk.org/gtk3/class.TextTag.html#properties>; enum values are
        // Pango's and GTK's own constants.
        set("weight", look.weight.map { Int32($0.pango.rawValue) })
        set("style", look.italic.map { Int32(($0 ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL).rawValue) })
        set("underline", look.underline.map { Int32(($0 ? PANGO_UNDERLINE_SINGLE : PANGO_UNDERLINE_NONE).rawValue) })
        set("strikethrough", look.strikethrough.map { Int32($0 ? 1 : 0) })
        // `rise` is in Pango units (1/1024 of a point at the text's size).
        set("rise", look.risePoints.map { Int32(clamping: Int(($0 * Double(PANGO_SCALE)).rounded())) })
        set("family", look.family)
        set("scale", look.scale)
        set("size-points", look.sizePoints)
        set("foreground", look.foreground?.hexString)
        set("background", look.background?.hexString)
        set("paragraph-background", look.paragraphBackground?.hexString)
        set("justification", look.justification.map { Int32($0.gtk.rawValue) })
        set("wrap-mode", look.wraps.map { Int32(($0 ? GTK_WRAP_WORD_CHAR : GTK_WRAP_NONE).rawValue) })
        set("left-margin", look.leftMargin.map { Int32(clamping: $0) })
        set("right-margin", look.rightMargin.map { Int32(clamping: $0) })
        set("indent", look.indent.map { Int32(clamping: $0) })
        set("pixels-above-lines", look.pixelsAboveLines.map { Int32(clamping: $0) })
        set("pixels-below-lines", look.pixelsBelowLines.map { Int32(clamping: $0) })
    }

    /// How a run of text looks. A property left nil is the view's own (the theme's).
    package struct Look: Equatable, Sendable {
        package enum Weight: Sendable {
            case normal, bold
            var pango: PangoWeight { self == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL }
        }

        package enum Justification: Sendable {
            case left, center, right
            var gtk: GtkJustification {
                switch self {
                case .left: return GTK_JUSTIFY_LEFT
                case .center: return GTK_JUSTIFY_CENTER
                case .right: return GTK_JUSTIFY_RIGHT
                }
            }
        }

        package var weight: Weight?
        package var italic: Bool?
        package var underline: Bool?
        package var strikethrough: Bool?
        /// How far above the baseline (below, when negative) the text sits, in points.
        package var risePoints: Double?
        package var family: String?
        /// A factor of the view's font size.
        package var scale: Double?
        /// An absolute font size.
        package var sizePoints: Double?
        package var foreground: RGBA?
        package var background: RGBA?
        /// Painted across the whole width of the paragraph's lines.
        package var paragraphBackground: RGBA?
        package var justification: Justification?
        /// false keeps lines as they are (preformatted text); true wraps them at words, or between characters.
        package var wraps: Bool?
        /// In pixels from the view's left edge.
        package var leftMargin: Int?
        /// In pixels from the view's right edge.
        package var rightMargin: Int?
        /// In pixels: the first line's indentation, negative to hang it left of the others.
        package var indent: Int?
        package var pixelsAboveLines: Int?
        package var pixelsBelowLines: Int?

        package init(weight: Weight? = nil, italic: Bool? = nil, underline: Bool? = nil, family: String? = nil,
                     scale: Double? = nil, sizePoints: Double? = nil, foreground: RGBA? = nil,
                     background: RGBA? = nil, paragraphBackground: RGBA? = nil,
                     justification: Justification? = nil, wraps: Bool? = nil, leftMargin: Int? = nil,
                     indent: Int? = nil, pixelsAboveLines: Int? = nil, pixelsBelowLines: Int? = nil,
                     strikethrough: Bool? = nil, risePoints: Double? = nil, rightMargin: Int? = nil) {
            self.weight = weight; self.italic = italic; self.underline = underline; self.family = family
            self.scale = scale; self.sizePoints = sizePoints; self.foreground = foreground
            self.background = background; self.paragraphBackground = paragraphBackground
            self.justification = justification; self.wraps = wraps; self.leftMargin = leftMargin
            self.indent = indent; self.pixelsAboveLines = pixelsAboveLines; self.pixelsBelowLines = pixelsBelowLines
            self.strikethrough = strikethrough; self.risePoints = risePoints; self.rightMargin = rightMargin
        }
    }
}
