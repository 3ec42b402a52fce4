internal import CGtk

/// A row or a column of widgets (`GtkBox`).
public final class Box: Widget {
    /// A column (`vertical`) or a row, with `spacing` logical pixels between children.
    public init(vertical: Bool, spacing: Int = 0) {
        super.init(retaining: gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL,
                                          Int32(spacing)))
    }
    /// Adds `child` after the others; `expand` gives it a share of extra space.
    public func pack(_ child: Widget, expand: Bool = false, fill: Bool = true, padding: Int = 0) {
        gtk_box_pack_start(cast(GtkBox.self), child.widget, expand ? 1 : 0, fill ? 1 : 0, UInt32(padding))
    }
}

/// A push button (`GtkButton`).
public final class Button: Widget {
    /// A button showing a symbolic icon, with a tooltip and an accessible name for screen readers.
    package init(iconName: String, tooltip: String, accessibleName: String) {
        super.init(retaining: gtk_button_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        setAccessible(name: accessibleName)
        gtk_widget_set_focus_on_click(widget, 0)
    }
    package func setIcon(_ iconName: String) {
        gtk_button_set_image(cast(GtkButton.self), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
    }
    /// A button with a text label; an underscore marks the mnemonic (`"_Stop"`: Alt+S).
    public init(label: String) {
        super.init(retaining: gtk_button_new_with_mnemonic(label))
    }
    /// Runs `handler` each time the button is clicked (or activated from the keyboard).
    @discardableResult
    public func onClicked(_ handler: @escaping () -> Void) -> SignalConnection { connect(.clicked, handler) }
    /// Acts as if the user clicked the button.
    package func click() { gtk_button_clicked(cast(GtkButton.self)) }
}

/// A one-line text entry (`GtkEntry`), and the base of `SearchEntry` (a GtkSearchEntry is a GtkEntry).
package class Entry: Widget {
    /// GtkEntryBuffer holds at most this many characters (GTK_ENTRY_BUFFER_MAX_SIZE) and cuts anything longer
    /// without a word. <https://docs.gtk.org/gtk3/method.EntryBuffer.insert_text.html>
    package static let maxCharacters = 65_535
    /// Set while the program itself sets the text, which is not the person's input.
    private var settingText = false
    /// The text as of the last `changed`. GtkEntry emits `changed` once a whole edit is over, so during a paste
    /// this is still the text from before it.
    private var textBeforeEdit = ""

    package convenience init() { self.init(entry: gtk_entry_new()) }

    /// Wraps a new `GtkEntry *`, or one of its subclasses'.
    init(entry: UnsafeMutableRawPointer) {
        super.init(retaining: entry)
        connect(.changed) { [weak self] in
            guard let self else { return }
            self.textBeforeEdit = self.text
        }
    }
    package var text: String {
        get { String(cString: gtk_entry_get_text(cast(GtkEntry.self))) }
        set {
            settingText = true
            gtk_entry_set_text(cast(GtkEntry.self), newValue)
            settingText = false
        }
    }
    /// Characters in the entry (what `maxCharacters` counts).
    package var characterCount: Int { Int(gtk_entry_get_text_length(cast(GtkEntry.self))) }

    /// Text the person types or pastes, before it goes in: `handler` gets it and returns false to refuse all of
    /// it (GTK would otherwise cut a paste at `maxCharacters`).
    package func onInput(_ handler: @escaping (String) -> Bool) {
        connect(.insertText) { [weak self] (instance: UnsafeMutableRawPointer, text: String) in
            guard self?.settingText != true, !handler(text) else { return }
            g_signal_stop_emission_by_name(instance, Signal.insertText.rawValue)
            // A paste over a selection has deleted the selection already; once the paste is over, the text is put
            // back as it was.
            guard let self, self.text != self.textBeforeEdit else { return }
            let before = self.textBeforeEdit
            MainLoop.idle { [weak self] in self?.text = before }
        }
    }

    /// Inserts `text` at the cursor as a paste does.
    package func insertAtCursor(_ text: String) {
        var position = Int32(gtk_editable_get_position(OpaquePointer(object)))
        gtk_editable_insert_text(OpaquePointer(object), text, -1, &position)
    }
    package var placeholder: String {
        get { String(cString: gtk_entry_get_placeholder_text(cast(GtkEntry.self))) }
        set { gtk_entry_set_placeholder_text(cast(GtkEntry.self), newValue) }
    }
    package func selectAll() { gtk_editable_select_region(OpaquePointer(object), 0, -1) }
    /// Return pressed in the entry.
    @discardableResult
    package func onActivate(_ handler: @escaping () -> Void) -> SignalConnection { connect(.activate, handler) }
    package func setInputPurposeURL() { gtk_entry_set_input_purpose(cast(GtkEntry.self), GTK_INPUT_PURPOSE_URL) }
}

/// One line of text, left-aligned and ellipsized when too long (`GtkLabel`).
public final class Label: Widget {
    /// A label showing `text`.
    public init(_ text: String = "") {
        super.init(retaining: gtk_label_new(text))
        gtk_label_set_xalign(cast(GtkLabel.self), 0)
        gtk_label_set_ellipsize(cast(GtkLabel.self), PANGO_ELLIPSIZE_END)
        gtk_label_set_single_line_mode(cast(GtkLabel.self), 1)
    }
    /// The text shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(cast(GtkLabel.self))) }
        set { gtk_label_set_text(cast(GtkLabel.self), newValue) }
    }
    /// The widest the label asks to be, in characters; longer text is ellipsized.
    package var maxWidthCharacters: Int {
        get { Int(gtk_label_get_max_width_chars(cast(GtkLabel.self))) }
        set { gtk_label_set_max_width_chars(cast(GtkLabel.self), Int32(newValue)) }
    }
}

/// A container that lays widgets over its main child (`GtkOverlay`): add the content with `add(_:)`, then attach a `LoadIndicator` to it.
public final class Overlay: Widget {
    /// An empty overlay.
    public init() { super.init(retaining: gtk_overlay_new()) }

    /// Wraps a `GtkOverlay *` made elsewhere, holding a reference to it while the wrapper lives.
    init(borrowing pointer: UnsafeMutableRawPointer) {
        let instance = pointer.assumingMemoryBound(to: GTypeInstance.self)
        precondition(g_type_check_instance_is_a(instance, gtk_overlay_get_type()) != 0,
                     "LoadIndicator.attach(toOverlay:) needs a GtkOverlay *; this pointer is a "
                     + String(cString: g_type_name(instance.pointee.g_class.pointee.g_type)))
        super.init(retaining: pointer)
    }
    /// Adds a child on top of the main one; `passThrough` lets clicks fall through to what is below.
    package func addOverlay(_ child: Widget, passThrough: Bool) {
        gtk_overlay_add_overlay(cast(GtkOverlay.self), child.widget)
        gtk_overlay_set_overlay_pass_through(cast(GtkOverlay.self), child.widget, passThrough ? 1 : 0)
    }
}

package final class DrawingArea: Widget {
    package init() { super.init(retaining: gtk_drawing_area_new()) }
}

package final class ScrolledWindow: Widget {
    package init() {
        super.init(retaining: gtk_scrolled_window_new(nil, nil))
        gtk_scrolled_window_set_policy(cast(GtkScrolledWindow.self), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
    }
    private var vadjustment: UnsafeMutablePointer<GtkAdjustment> {
        gtk_scrolled_window_get_vadjustment(cast(GtkScrolledWindow.self))
    }
    /// The vertical scroll offset in pixels.
    package var verticalOffset: Double {
        get { gtk_adjustment_get_value(vadjustment) }
        set { gtk_adjustment_set_value(vadjustment, newValue) }
    }
    private var hadjustment: UnsafeMutablePointer<GtkAdjustment> {
        gtk_scrolled_window_get_hadjustment(cast(GtkScrolledWindow.self))
    }
    /// The horizontal scroll offset in pixels (non-zero only when preformatted lines are wider than the view).
    package var horizontalOffset: Double {
        get { gtk_adjustment_get_value(hadjustment) }
        set { gtk_adjustment_set_value(hadjustment, newValue) }
    }
    package var verticalRange: (lower: Double, upper: Double, page: Double) {
        (gtk_adjustment_get_lower(vadjustment), gtk_adjustment_get_upper(vadjustment),
         gtk_adjustment_get_page_size(vadjustment))
    }
}

extension ScrolledWindow {
    /// The vertical scroll position changed (by the reader, a key, or the program).
    @discardableResult
    package func onVerticalScroll(_ handler: @escaping () -> Void) -> SignalConnection {
        let adjustment = GObjectHandle(retaining: UnsafeMutableRawPointer(
            gtk_scrolled_window_get_vadjustment(cast(GtkScrolledWindow.self))!))
        return adjustment.connect(.valueChanged, handler)
    }
}

/// A top-level window (`GtkWindow`).
public final class Window: Widget {
    init(applicationWindowOf application: Application) {
        super.init(retaining: gtk_application_window_new(application.cast(GtkApplication.self)))
    }
    /// Wraps a window GTK made (a dialog, a window from GtkBuilder), holding a reference while the wrapper lives.
    init(wrapping pointer: UnsafeMutableRawPointer) { super.init(retaining: pointer) }
    /// A window not tied to an `Application` (see `Application.makeWindow()`).
    public init() { super.init(retaining: gtk_window_new(GTK_WINDOW_TOPLEVEL)) }

    /// The title in the window's frame.
    public var title: String {
        get { gtk_window_get_title(cast(GtkWindow.self)).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(cast(GtkWindow.self), newValue) }
    }
    /// The size the window opens at, in logical pixels.
    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(cast(GtkWindow.self), Int32(width), Int32(height))
    }
    package func setIconName(_ name: String) { gtk_window_set_icon_name(cast(GtkWindow.self), name) }
    /// Asks for a new size, in logical pixels, as a person dragging the window's edge would.
    package func resize(width: Int, height: Int) {
        gtk_window_resize(cast(GtkWindow.self), Int32(width), Int32(height))
    }
    /// Shows the window and brings it to the front.
    public func present() { gtk_window_present(cast(GtkWindow.self)) }
    package func close() { gtk_window_close(cast(GtkWindow.self)) }
}
