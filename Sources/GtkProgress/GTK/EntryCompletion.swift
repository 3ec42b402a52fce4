internal import CGtk

/// Suggestions under an entry as the person types (`GtkEntryCompletion`): each row a text shown and a value put in
/// the entry when chosen; a row matches when its shown text holds every word typed, case ignored (not only as a
/// prefix, so "gtk" finds "The GTK Project — https://gtk.org/"). <https://docs.gtk.org/gtk3/class.EntryCompletion.html>
package final class EntryCompletion: GObjectHandle {
    nonisolated(unsafe) private let store: UnsafeMutablePointer<GtkListStore>
    /// Chosen: the row's value.
    private var chosen: ((String) -> Void)?

    package init(for entry: Entry) {
        let completion = gtk_entry_completion_new()!
        store = cgtk_list_store_new_strings2()
        super.init(adopting: UnsafeMutableRawPointer(completion))
        let raw = cast(GtkEntryCompletion.self)
        gtk_entry_completion_set_model(raw, OpaquePointer(store))
        gtk_entry_completion_set_text_column(raw, 0)
        gtk_entry_completion_set_minimum_key_length(raw, 2)
        gtk_entry_completion_set_popup_set_width(raw, 1)
        gtk_entry_completion_set_match_func(raw, { _, key, iter, data in
            guard let key, let iter, let data else { return 0 }
            let model = Unmanaged<EntryCompletion>.fromOpaque(data).takeUnretainedValue().store
            guard let text = cgtk_tree_model_dup_string(OpaquePointer(model), iter, 0) else { return 0 }
            defer { g_free(text) }
            // GTK hands the key normalized and case-folded; the row is folded the same way.
            guard let folded = g_utf8_casefold(text, -1) else { return 0 }
            defer { g_free(folded) }
            let haystack = String(cString: folded)
            let words = String(cString: key).split(separator: " ")
            return words.allSatisfy { haystack.contains($0) } ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        connect(.matchSelected) { [weak self] (model: OpaquePointer, iter: UnsafeMutableRawPointer) -> Bool in
            self?.choose(model: model, iter: iter.assumingMemoryBound(to: GtkTreeIter.self)) ?? false
        }
        gtk_entry_set_completion(entry.cast(GtkEntry.self), raw)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(store))
    }

    /// Replaces the rows: each (shown, value).
    package func setRows(_ rows: [(shown: String, value: String)]) {
        gtk_list_store_clear(store)
        for row in rows { cgtk_list_store_append_strings2(store, row.shown, row.value) }
    }

    /// A suggestion was chosen: `handler` gets its value (the entry is then given it).
    package func onChosen(_ handler: @escaping (String) -> Void) { chosen = handler }

    private func choose(model: OpaquePointer, iter: UnsafeMutablePointer<GtkTreeIter>) -> Bool {
        guard let value = cgtk_tree_model_dup_string(model, iter, 1) else { return false }
        defer { g_free(value) }
        chosen?(String(cString: value))
        return chosen != nil
    }
}

