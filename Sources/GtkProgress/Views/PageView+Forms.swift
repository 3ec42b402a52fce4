import FoundationEssentials

/// The view's side of the page's forms: a widget for each control in the buffer, placed where its U+FFFC stands
/// (found walking the text once, as `PageViewImages` does), and the form state those widgets write into.
struct PageViewForms {
    /// What the reader has filled in; nil before a document with controls is shown.
    var state: FormState?
    /// Indices into `Document.controls` of those that stand in the text, in document order.
    var placeable: [Int] = []
    /// How many of `placeable` are in the buffer, and their character offsets.
    var offsets: [Int] = []
    var scanByte = 0
    var scanCharacter = 0
    /// The widget of each control placed, by control index.
    var widgets: [Int: Widget] = [:]
    /// The hidden first member of each radio group's GTK group (`ToggleButton`), by form and name.
    var radioGroups: [String: ToggleButton] = [:]
}

extension PageView {
    /// The form state the widgets reflect (tests read what would be sent).
    package var formState: FormState? { forms.state }

    /// The widget of control `index`, once its slice is in the buffer (tests and keyboard focus).
    package func formWidget(_ index: Int) -> Widget? { forms.widgets[index] }

    /// Starts the forms of a new document.
    func formsReplaced(by document: Document) {
        forms = PageViewForms()
        guard !document.controls.isEmpty else { return }
        forms.state = FormState(controls: document.controls)
        forms.placeable = document.controls.indices.filter { document.controls[$0].offset != nil }
    }

    /// Finds the controls the last slice brought into the buffer and puts a widget in each one's place.
    func placeControls(insertedBytes: Int) {
        guard let document, forms.offsets.count < forms.placeable.count else { return }
        let bytes = document.storage.bytes
        while forms.offsets.count < forms.placeable.count {
            let index = forms.placeable[forms.offsets.count]
            guard let offset = document.controls[index].offset, offset + 3 <= insertedBytes,
                  offset >= forms.scanByte else { break }
            var characters = forms.scanCharacter
            for k in forms.scanByte..<offset where bytes[k] & 0xC0 != 0x80 { characters += 1 }
            forms.scanByte = offset
            forms.scanCharacter = characters
            // The walk counts the document's characters; a grid in an area stands in the page as one.
            let place = pageOffset(ofReading: characters)
            forms.offsets.append(place)
            let widget = makeWidget(for: index, control: document.controls[index])
            forms.widgets[index] = widget
            textView.replaceCharacter(at: place, withWidget: widget)
        }
    }

    /// Forgets the controls at or after character `cut`, which `showProgressive` deleted (their widgets went
    /// with their anchors). What was typed in the controls kept stays.
    func cutControls(at cut: Int) {
        while let last = forms.offsets.last, last >= cut {
            forms.widgets[forms.placeable[forms.offsets.count - 1]] = nil
            forms.offsets.removeLast()
        }
        guard let document, let last = forms.offsets.indices.last else {
            forms.offsets = []
            forms.scanByte = 0
            forms.scanCharacter = 0
            return
        }
        forms.scanByte = document.controls[forms.placeable[last]].offset ?? 0
        forms.scanCharacter = readingOffset(ofPage: forms.offsets[last])
    }

    private func makeWidget(for index: Int, control: FormControl) -> Widget {
        let widget: Widget
        let state = forms.state
        switch control.kind {
        case .field(_, let secret):
            let entry = Entry()
            entry.configureField(characters: control.size, secret: secret)
            entry.text = state?.values[index] ?? control.value
            if let placeholder = control.placeholder { entry.placeholder = placeholder }
            entry.onChanged { [weak self] text in self?.forms.state?.values[index] = text }
            entry.onActivate { [weak self] in self?.submitImplicitly(from: index) }
            widget = entry
        case .checkbox, .radio:
            let toggle: ToggleButton
            if control.kind == .radio {
                let key = "\(control.form ?? -1)/\(control.name)"
                let leader = forms.radioGroups[key] ?? ToggleButton(radio: true)
                forms.radioGroups[key] = leader
                toggle = ToggleButton(radioJoining: leader)
                // Joining a group leaves the newcomer off; the group's choice is the state's.
                if state?.checked[index] ?? control.checked { toggle.isActive = true }
            } else {
                toggle = ToggleButton(radio: false)
                toggle.isActive = state?.checked[index] ?? control.checked
            }
            toggle.onToggled { [weak self] active in self?.toggled(index, active: active) }
            widget = toggle
        case .select(let options, _):
            let list = ChoiceList(choices: options.map(\.label))
            list.selectedIndex = state?.selected[index].first ?? -1
            list.onChanged { [weak self] chosen in
                guard chosen >= 0 else { return }
                self?.forms.state?.selected[index] = [chosen]
            }
            widget = list
        case .textArea(let rows, let columns):
            let area = TextArea(text: state?.values[index] ?? control.value, rows: rows, columns: columns)
            area.onChanged { [weak self] text in self?.forms.state?.values[index] = text }
            widget = area
        case .submit, .reset, .button, .hidden:
            let label = control.placeholder ?? (control.value.isEmpty
                ? (control.kind == .reset ? L("Reset") : L("Submit")) : control.value)
            let button = Button(label: label.split(separator: "_", omittingEmptySubsequences: false).joined(separator: "__"))
            button.onClicked { [weak self] in self?.buttonClicked(index) }
            widget = button
        }
        widget.isSensitive = !control.disabled
        // Its label, or else what it asks for, names it to a screen reader.
        if let name = control.label ?? control.placeholder ?? (control.name.isEmpty ? nil : control.name) {
            if let area = widget as? TextArea { area.setTextAccessible(name: name) } else { widget.setAccessible(name: name) }
        }
        widget.onKeyPress { [weak self] key in self?.controlKeyPressed(index, key) ?? false }
        return widget
    }

    private func toggled(_ index: Int, active: Bool) {
        guard var state = forms.state else { return }
        if state.controls[index].kind == .radio {
            // A radio button goes off because another of its group came on, which says so itself.
            guard active else { return }
            state.choose(radio: index)
        } else {
            state.checked[index] = active
        }
        forms.state = state
        reflectToggles()
    }

    /// Sets every check box and radio button placed from the state.
    private func reflectToggles() {
        guard let state = forms.state else { return }
        for (index, widget) in forms.widgets {
            guard let toggle = widget as? ToggleButton, toggle.isActive != state.checked[index] else { continue }
            if state.controls[index].kind == .radio && !state.checked[index] {
                // Another of the group going on turns this one off; none on is the hidden member on.
                let control = state.controls[index]
                let anyOn = state.controls.indices.contains { k in
                    state.controls[k].kind == .radio && state.controls[k].form == control.form
                        && state.controls[k].name == control.name && state.checked[k]
                }
                if !anyOn { forms.radioGroups["\(control.form ?? -1)/\(control.name)"]?.isActive = true }
                continue
            }
            toggle.isActive = state.checked[index]
        }
    }

    private func buttonClicked(_ index: Int) {
        guard let state = forms.state, let form = state.controls[index].form else { return }
        switch state.controls[index].kind {
        case .submit: submit(form: form, submitter: index)
        case .reset:
            forms.state?.reset(form: form)
            reflectAll(form: form)
        default: break
        }
    }

    /// Puts the state back into the widgets of form `form` (after a reset).
    private func reflectAll(form: Int) {
        guard let state = forms.state else { return }
        for (index, widget) in forms.widgets where state.controls[index].form == form {
            if let entry = widget as? Entry { entry.text = state.values[index] }
            if let list = widget as? ChoiceList { list.selectedIndex = state.selected[index].first ?? -1 }
        }
        reflectToggles()
    }

    /// Return in a field: the form is sent as by its first submit button, when HTML's implicit submission says so.
    private func submitImplicitly(from index: Int) {
        guard let state = forms.state, let form = state.controls[index].form,
              state.submitsImplicitly(form: form) else { return }
        submit(form: form, submitter: state.defaultButton(of: form))
    }

    private func submit(form: Int, submitter: Int?) {
        guard let document, let state = forms.state else { return }
        switch FormSubmission.make(document: document, state: state, form: form, submitter: submitter,
                                   pageURL: document.baseURL) {
        case .success(let submission): onFormSubmitted?(submission)
        case .failure(let refusal): onFormRefused?(refusal.description)
        }
    }

    /// Tab and Shift+Tab in a control move on through the page's links and controls, in page order.
    private func controlKeyPressed(_ index: Int, _ key: KeyPress) -> Bool {
        if !key.control, !key.alt, !key.shift, key.keyval == KeyPress.value("Return") || key.keyval == KeyPress.value("KP_Enter"),
           forms.widgets[index] is Button {
            // Return presses a button too, as in a browser (GTK's own activation fails here, as for Space).
            buttonClicked(index)
            return true
        }
        if !key.control, !key.alt, key.keyval == KeyPress.value("space"), let widget = forms.widgets[index] {
            // Space ticks a box and presses a button at once. GTK's own keyboard activation of a button grabs
            // the keyboard for a quarter of a second first (`gtk_real_button_activate`), which fails for a button
            // inside a text view here and leaves the key without effect.
            if let toggle = widget as? ToggleButton {
                if !(toggle.isActive && forms.state?.controls[index].kind == .radio) {
                    toggle.isActive.toggle()
                    toggled(index, active: toggle.isActive)
                }
                return true
            }
            if widget is Button {
                buttonClicked(index)
                return true
            }
        }
        guard !key.control, !key.alt,
              key.keyval == KeyPress.value("Tab") || key.keyval == KeyPress.value("ISO_Left_Tab") else { return false }
        guard let position = forms.placeable.firstIndex(of: index), position < forms.offsets.count else { return false }
        let offset = forms.offsets[position]
        textView.grabFocus()
        textView.placeCursor(atCharacter: offset)
        return moveFocus(forward: !key.shift, from: offset)
    }

    /// The next (or previous) stop after character `offset`: a link or a control, whichever comes first.
    /// Returns false when there is none, so the focus may leave the page.
    func moveFocus(forward: Bool, from offset: Int) -> Bool {
        let nextLink = forward ? linkRanges.firstIndex { $0.start > offset } : linkRanges.lastIndex { $0.start < offset }
        let nextControl = forward ? forms.offsets.firstIndex { $0 > offset } : forms.offsets.lastIndex { $0 < offset }
        let linkStart = nextLink.map { linkRanges[$0].start }
        let controlStart = nextControl.map { forms.offsets[$0] }
        if let controlStart, let nextControl,
           linkStart == nil || (forward ? controlStart < linkStart! : controlStart > linkStart!),
           let widget = forms.widgets[forms.placeable[nextControl]] {
            focusedRange = nil
            textView.queueDraw()
            if let area = widget as? TextArea { area.focusText() } else { widget.grabFocus() }
            textView.scrollIntoView(character: controlStart, margin: 0.1)
            return true
        }
        setFocusedRange(nextLink)
        return nextLink != nil
    }

    /// A partly arrived page shown again: the controls it shares with the one before keep what was filled in.
    func formsUpdated(to document: Document) {
        let old = forms.state
        guard !document.controls.isEmpty else {
            forms.state = nil
            forms.placeable = []
            return
        }
        var state = FormState(controls: document.controls)
        if let old {
            for k in 0..<min(old.controls.count, state.controls.count) where old.controls[k] == state.controls[k] {
                state.values[k] = old.values[k]
                state.checked[k] = old.checked[k]
                state.selected[k] = old.selected[k]
            }
        }
        forms.state = state
        forms.placeable = document.controls.indices.filter { document.controls[$0].offset != nil }
    }
}
