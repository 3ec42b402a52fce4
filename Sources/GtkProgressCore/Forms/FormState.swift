import FoundationEssentials

/// What the reader has filled in: each control's current value, ticks and choices. The widgets in the window
/// write into it as the reader types and clicks; submission reads only from it, so the rules of what is sent
/// live here and are tested without a display.
package struct FormState: Sendable, Equatable {
    package let controls: [FormControl]
    /// The text of each field and text area, by control index.
    package var values: [String]
    /// Whether each checkbox and radio button is ticked, by control index.
    package var checked: [Bool]
    /// The chosen options of each `<select>`, by control index (empty for other controls).
    package var selected: [[Int]]

    package init(controls: [FormControl]) {
        self.controls = controls
        values = controls.map(\.value)
        checked = controls.map(\.checked)
        selected = controls.map { control in
            guard case .select(let options, let multiple) = control.kind else { return [] }
            let chosen = options.indices.filter { options[$0].selected }
            if multiple { return chosen }
            // One choice: the last one marked selected, or else the first option that may be chosen (HTML's
            // "selectedness setting algorithm" for a select whose display size is 1).
            if let last = chosen.last { return [last] }
            return options.indices.first { !options[$0].disabled }.map { [$0] } ?? []
        }
    }

    /// Ticks radio button `index` and unticks the others of its group (same form, same name).
    package mutating func choose(radio index: Int) {
        let control = controls[index]
        for k in controls.indices where controls[k].kind == .radio && controls[k].form == control.form
            && controls[k].name == control.name && !control.name.isEmpty {
            checked[k] = false
        }
        checked[index] = true
    }

    /// Puts every control of form `form` back as the page gave it (a reset button).
    package mutating func reset(form: Int) {
        let fresh = FormState(controls: controls)
        for k in controls.indices where controls[k].form == form {
            values[k] = fresh.values[k]
            checked[k] = fresh.checked[k]
            selected[k] = fresh.selected[k]
        }
    }

    /// The form's entry list: the name and value of each control that is sent, in document order, with the
    /// submitter's own name and value if it has a name.
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#constructing-the-form-data-set>
    package func entries(form: Int, submitter: Int?) -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        for k in controls.indices {
            let control = controls[k]
            guard control.form == form, !control.disabled, !control.name.isEmpty else { continue }
            switch control.kind {
            case .submit, .reset, .button:
                if k == submitter && control.kind == .submit { entries.append((control.name, control.value)) }
            case .checkbox, .radio:
                if checked[k] { entries.append((control.name, control.value)) }
            case .select(let options, _):
                for option in selected[k] where !options[option].disabled {
                    entries.append((control.name, options[option].value))
                }
            case .textArea:
                // Line breaks are sent as CRLF ("textarea wrapping transformation" and the entry list's
                // newline normalisation).
                entries.append((control.name, FormEncoding.normalizedNewlines(values[k])))
            case .field, .hidden:
                entries.append((control.name, values[k]))
            }
        }
        return entries
    }

    /// The first submit button of form `form`, or nil: Return in a field submits as if it were clicked
    /// ("implicit submission").
    package func defaultButton(of form: Int) -> Int? {
        controls.indices.first { controls[$0].form == form && controls[$0].submits }
    }

    /// Whether Return in a field of form `form` submits it: when it has a submit button, or only one field
    /// that blocks implicit submission.
    /// <https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#implicit-submission>
    package func submitsImplicitly(form: Int) -> Bool {
        if let button = defaultButton(of: form) { return !controls[button].disabled }
        let fields = controls.filter { control in
            guard control.form == form else { return false }
            if case .field = control.kind { return true }
            return false
        }
        return fields.count == 1
    }
}
