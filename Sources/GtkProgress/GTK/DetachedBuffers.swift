internal import CGtk

/// Text buffers no view shows any more (`TextView.replaceBuffer`), emptied a slice per main-loop turn and then
/// released.
///
/// Releasing a detached buffer that holds a large page in one go frees its whole B-tree in that main-loop turn:
/// about 0.12 s for 3 million characters with 30,000 tagged ranges on this machine (GTK 3.24.38), where deleting
/// the same text from it while no view shows it takes 0.03 s. So the text is deleted from the end, a slice at a
/// time for a few milliseconds per turn, from an idle source at the priority of the page's own insertion
/// (G_PRIORITY_DEFAULT_IDLE, below GTK's layout and drawing), and the emptied buffer is then released.
@MainActor
package enum DetachedBuffers {
    private static var waiting: [UnsafeMutablePointer<GtkTextBuffer>] = []
    private static var sourceID: UInt32 = 0
    /// Characters deleted at once; a turn deletes slices until its time is used. A slice of 16 K characters of
    /// Node.js's all.html took up to 12 ms (its tags' toggles), more than the turn's budget.
    static let sliceCharacters: Int32 = 4 * 1024
    /// Main-loop time a turn spends emptying buffers, in microseconds.
    static let turnMicroseconds: gint64 = 4000

    /// Takes over the caller's reference to `buffer`.
    static func release(_ buffer: UnsafeMutablePointer<GtkTextBuffer>) {
        let object = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GObject.self)
        // A buffer someone else still holds is theirs to empty; a short one goes at once.
        if object.pointee.ref_count > 1 || gtk_text_buffer_get_char_count(buffer) <= sliceCharacters {
            g_object_unref(object)
            return
        }
        waiting.append(buffer)
        guard sourceID == 0 else { return }
        sourceID = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { _ in
            // The default main context's sources are dispatched on the main thread, the one that runs it.
            MainActor.assumeIsolated { DetachedBuffers.step() } ? 1 : 0
        }, nil, nil)
    }

    /// Characters still waiting to be deleted, in every buffer not yet released.
    package static var pendingCharacters: Int {
        waiting.reduce(0) { $0 + Int(gtk_text_buffer_get_char_count($1)) }
    }

    /// One main-loop turn's share of the work; false when every buffer is gone.
    private static func step() -> Bool {
        let deadline = g_get_monotonic_time() + turnMicroseconds
        repeat {
            guard let buffer = waiting.first else {
                sourceID = 0
                return false
            }
            let count = gtk_text_buffer_get_char_count(buffer)
            guard count > 0 else {
                waiting.removeFirst()
                g_object_unref(UnsafeMutableRawPointer(buffer))
                continue
            }
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_iter_at_offset(buffer, &start, max(count - sliceCharacters, 0))
            gtk_text_buffer_get_end_iter(buffer, &end)
            gtk_text_buffer_delete(buffer, &start, &end)
        } while g_get_monotonic_time() < deadline
        return true
    }
}
