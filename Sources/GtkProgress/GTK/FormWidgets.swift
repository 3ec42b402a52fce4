internal import CGtk

/// The GTK widgets a page's form controls are drawn with. Each only reflects and reports: what is filled in is
/// kept in the page's `FormState`.

/// A check box or a radio button (`GtkCheckButton`, `GtkRadioButton`). The radio buttons of a form's group
/// share a GTK group whose first member is never shown: a GTK group always has one button on, and a page's
/// group may start with none ticked, which is that hidden member being on.
package final class ToggleButton: Widget {
    private var settingActive = false

    package init(radio: Bool) {
        super.init(retaining: radio ? gtk_radio_button_new(nil) : gtk_check_button_new())
    }

    /// A radio button in `leader`'s group.
    package init(radioJoining leader: ToggleButton) {
        super.init(retaining: gtk_radio_button_new(nil))
        gtk_radio_button_join_group(cast(GtkRadioButton.self), leader.cast(GtkRadioButton.self))
    }

    package var isActive: Bool {
        get { gtk_toggle_button_get_active(cast(GtkToggleButton.self)) != 0 }
        set {
            settingActive = true
            gtk_toggle_button_set_active(cast(GtkToggleButton.self), newValue ? 1 : 0)
            settingActive = false
        }
    }

    /// The reader ticked or unticked it (not `isActive` being set).
    @discardableResult
    package func onToggled(_ handler: @escaping (Bool) -> Void) -> SignalConnection {
        connect(.toggled) { [weak self] in
            guard let self, !self.settingActive else { return }
            handler(self.isActive)
        }
    }
}

/// A drop-down list of choices (`GtkComboBoxText`).
package final class ChoiceList: Widget {
    package init(choices: [String]) {
        super.init(retaining: gtk_combo_box_text_new())
        for choice in choices { gtk_combo_box_text_append_text(cast(GtkComboBoxText.self), choice) }
    }

    /// The chosen item, -1 for none.
    package var selectedIndex: Int {
        get { Int(gtk_combo_box_get_active(cast(GtkComboBox.self))) }
        set { gtk_combo_box_set_active(cast(GtkComboBox.self), Int32(clamping: newValue)) }
    }

    @discardableResult
    package func onChanged(_ handler: @escaping (Int) -> Void) -> SignalConnection {
        connect(.changed) { [weak self] in handler(self?.selectedIndex ?? -1) }
    }
}

/// A field of several lines (`GtkTextView` in a frame), `columns` characters wide and `rows` lines high.
package final class TextArea: Widget {
    private let view: UnsafeMutablePointer<GtkWidget>
    private let buffer: GObjectHandle

    package init(text: String, rows: Int, columns: Int) {
        let frame = gtk_frame_new(nil)!
        view = gtk_text_view_new()
        let textView = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkTextView.self)
        gtk_text_view_set_wrap_mode(textView, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_left_margin(textView, 3)
        gtk_text_view_set_right_margin(textView, 3)
        // Tab moves on to the page's next link or control (`PageView.moveFocus`), as in a browser's text area.
        gtk_text_view_set_accepts_tab(textView, 0)
        let textBuffer = gtk_text_view_get_buffer(textView)!
        gtk_text_buffer_set_text(textBuffer, text, -1)
        buffer = GObjectHandle(retaining: UnsafeMutableRawPointer(textBuffer))
        // A character cell of the view's font, measured with Pango, sizes the field as `cols` and `rows` ask.
        let layout = gtk_widget_create_pango_layout(view, "0")!
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        g_object_unref(UnsafeMutableRawPointer(layout))
        gtk_widget_set_size_request(view, Int32(clamping: columns * Int(max(width, 6)) + 6),
                                    Int32(clamping: rows * Int(max(height, 12))))
        gtk_container_add(UnsafeMutableRawPointer(frame).assumingMemoryBound(to: GtkContainer.self), view)
        super.init(retaining: UnsafeMutableRawPointer(frame))
    }

    package var text: String {
        let textBuffer = buffer.cast(GtkTextBuffer.self)
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(textBuffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(textBuffer, &start, &end, 0) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    @discardableResult
    package func onChanged(_ handler: @escaping (String) -> Void) -> SignalConnection {
        buffer.connect(.changed) { [weak self] in handler(self?.text ?? "") }
    }

    /// Names the text view inside the frame, the part a screen reader reaches.
    package func setTextAccessible(name: String) {
        atk_object_set_name(gtk_widget_get_accessible(view), name)
    }

    /// The widget that takes the keyboard: the text view inside the frame.
    package func focusText() { gtk_widget_grab_focus(view) }
}

extension Entry {
    /// A field `characters` wide whose text is shown as typed, or hidden (a password).
    package func configureField(characters: Int, secret: Bool) {
        gtk_entry_set_width_chars(cast(GtkEntry.self), Int32(clamping: min(max(characters, 1), 200)))
        if secret {
            gtk_entry_set_visibility(cast(GtkEntry.self), 0)
            gtk_entry_set_input_purpose(cast(GtkEntry.self), GTK_INPUT_PURPOSE_PASSWORD)
        }
    }

    @discardableResult
    package func onChanged(_ handler: @escaping (String) -> Void) -> SignalConnection {
        connect(.changed) { [weak self] in handler(self?.text ?? "") }
    }
}

extension TextView {
    /// Puts `child` in place of the one character at `offset` (a U+FFFC), through a child anchor, which is one
    /// character too: no other offset moves. <https://docs.gtk.org/gtk3/method.TextView.add_child_at_anchor.html>
    package func replaceCharacter(at offset: Int, withWidget child: Widget) {
        var made: UnsafeMutablePointer<GtkTextChildAnchor>?
        replaceCharacter(at: offset) { made = gtk_text_buffer_create_child_anchor(buffer, &$0) }
        guard let anchor = made else { return }
        gtk_widget_show_all(child.widget)
        gtk_text_view_add_child_at_anchor(cast(GtkTextView.self), child.widget, anchor)
    }
}
