import FoundationEssentials

/// A `<form>` of the page: where it sends what is filled in, and how.
/// <https://html.spec.whatwg.org/multipage/forms.html#the-form-element>
package struct PageForm: Sendable, Equatable {
    package enum Method: Sendable, Equatable {
        case get, post
    }

    /// The `action` attribute as written (resolved at submission against the page); nil or empty: the page itself.
    package var action: String?
    package var method: Method
    /// `enctype` lowercased; only `application/x-www-form-urlencoded` (the default) is sent as such, and
    /// `text/plain` and `multipart/form-data` are read as it too (no file can be chosen here).
    package var encoding: String

    package init(action: String?, method: Method = .get, encoding: String = "application/x-www-form-urlencoded") {
        self.action = action
        self.method = method
        self.encoding = encoding
    }

    /// The form element's attributes, read as HTML's enumerated attributes: an unknown method is GET.
    /// (`dialog` closes a dialog and sends nothing; no script runs here to have opened one, so it reads as GET.)
    package init(action: String?, method: String?, encoding: String?) {
        self.init(action: action,
                  method: method?.trimmed().lowercased() == "post" ? .post : .get,
                  encoding: encoding?.trimmed().lowercased() ?? "application/x-www-form-urlencoded")
    }
}

/// One control of a form: a field, a box to tick, a list to choose from, a button.
/// <https://html.spec.whatwg.org/multipage/input.html#attr-input-type>
package struct FormControl: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A one-line field: text, search, email, number, url, tel (and any type not known); `secret` for a
        /// password, whose characters are not shown.
        case field(type: String, secret: Bool)
        case hidden
        case checkbox
        case radio
        /// `<select>`: its options; `multiple` lets more than one be chosen.
        case select(options: [FormOption], multiple: Bool)
        /// `<textarea>`: a field of several lines.
        case textArea(rows: Int, columns: Int)
        case submit
        case reset
        /// A button that does nothing without a script.
        case button
    }

    package var kind: Kind
    package var name: String
    /// The value it starts with (for a checkbox or radio button, the value sent when it is ticked: "on" unless
    /// given; for a button, its label).
    package var value: String
    /// A checkbox or radio button ticked at the start.
    package var checked: Bool
    package var disabled: Bool
    /// Characters a field is wide (`size`, or `cols` of a text area).
    package var size: Int
    /// `placeholder`: a hint shown in an empty field; for a `<button>`, its label (its text content).
    package var placeholder: String?
    /// What its `<label>` says (the label around it, or one naming its `id`): its name for a screen reader.
    package var label: String?
    /// Its `id`, which a `<label for>` names.
    package var elementID: String?
    /// The index of its form in `Document.forms`; nil outside any form (the control submits nothing).
    package var form: Int?
    /// Where it stands in the document's text: the byte offset of the U+FFFC a widget replaces in the window;
    /// nil when the control is written as text (`--dump`, or inside a table's columns).
    package var offset: Int?

    package init(kind: Kind, name: String = "", value: String = "", checked: Bool = false, disabled: Bool = false,
                 size: Int = 20, placeholder: String? = nil, form: Int? = nil, offset: Int? = nil) {
        self.kind = kind; self.name = name; self.value = value; self.checked = checked; self.disabled = disabled
        self.size = size; self.placeholder = placeholder; self.form = form; self.offset = offset
    }

    /// Whether it sends the form (a submit button, or an image button).
    package var submits: Bool { kind == .submit }
}

/// An `<option>` of a `<select>`.
package struct FormOption: Sendable, Equatable {
    package var label: String
    package var value: String
    package var selected: Bool
    package var disabled: Bool

    package init(label: String, value: String, selected: Bool = false, disabled: Bool = false) {
        self.label = label; self.value = value; self.selected = selected; self.disabled = disabled
    }
}
