internal import CGtk

/// A tag in a text buffer's tag table: how a run of text looks.
package final class TextTag {
    let tag: UnsafeMutablePointer<GtkTextTag>
    package let name: String

    init(buffer: UnsafeMutablePointer<GtkTextBuffer>, name: String) {
        tag = cgtk_text_buffer_create_tag(buffer, name)
        self.name = name
    }
    private var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(tag) }
    package func set(_ property: String, string: String) { cgtk_object_set_string(raw, property, string) }
    package func set(_ property: String, int: Int) { cgtk_object_set_int(raw, property, Int32(int)) }
    package func set(_ property: String, double: Double) { cgtk_object_set_double(raw, property, double) }
    package func set(_ property: String, bool: Bool) { cgtk_object_set_bool(raw, property, bool ? 1 : 0) }
}
