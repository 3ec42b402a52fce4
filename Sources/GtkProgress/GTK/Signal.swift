/// The signals the layer connects to and emits, by the names GObject registers them under: a misspelt name is a
/// compile error here, where a string would connect nothing and only print a warning at run time (rhx/SwiftGtk
/// names its signals by typed enums for the same reason). Views never see these names; they call the typed
/// handlers (`onClicked`, `onButtonPress`, …).
package enum Signal: String, Sendable {
    // GtkWidget <https://docs.gtk.org/gtk3/class.Widget.html#signals>
    case buttonPressEvent = "button-press-event"
    case buttonReleaseEvent = "button-release-event"
    case deleteEvent = "delete-event"
    case destroy
    case dragDataReceived = "drag-data-received"
    case dragDrop = "drag-drop"
    case dragMotion = "drag-motion"
    case draw
    case focus
    case focusInEvent = "focus-in-event"
    case focusOutEvent = "focus-out-event"
    case keyPressEvent = "key-press-event"
    case leaveNotifyEvent = "leave-notify-event"
    case motionNotifyEvent = "motion-notify-event"
    case popupMenu = "popup-menu"
    case scrollEvent = "scroll-event"
    case styleUpdated = "style-updated"

    // GtkButton, GtkEntry and GtkMenuItem's `activate`, GApplication's `activate` and `open`
    case activate
    case clicked
    case open
    // GtkToggleButton (GtkMenuButton, check and radio buttons), GtkDialog, GtkEntryCompletion
    case toggled
    case response
    // GtkEntryCompletion, GtkListBox
    case matchSelected = "match-selected"
    case rowActivated = "row-activated"

    // GtkEditable <https://docs.gtk.org/gtk3/iface.Editable.html#signals>, GtkSearchEntry, GtkAdjustment
    case changed
    case sizeAllocate = "size-allocate"
    case insertText = "insert-text"
    case searchChanged = "search-changed"
    case valueChanged = "value-changed"

    // GtkTextView <https://docs.gtk.org/gtk3/signal.TextView.copy-clipboard.html>
    case copyClipboard = "copy-clipboard"

    // GObject's `notify` for one property <https://docs.gtk.org/gobject/signal.Object.notify.html>
    case searchModeEnabledChanged = "notify::search-mode-enabled"

    // AtkObject <https://docs.gtk.org/atk/class.Object.html#signals>
    case accessiblePropertyChange = "property-change"
    case accessibleStateChange = "state-change"
}
