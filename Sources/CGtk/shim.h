#ifndef GTKPROGRESS_CGTK_SHIM_H
#define GTKPROGRESS_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <malloc.h>


/* Only what Swift cannot import: macros and variadic functions. */

/* mallopt(3) from <malloc.h>, which Glibc's Swift module leaves out. */
static inline int cgtk_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

static inline gboolean cgtk_settings_get_boolean(GtkSettings *settings, const gchar *name) {
    gboolean value = FALSE;
    g_object_get(settings, name, &value, NULL);
    return value;
}

static inline void cgtk_object_set_string(gpointer object, const gchar *name, const gchar *value) {
    g_object_set(object, name, value, NULL);
}

static inline void cgtk_object_set_int(gpointer object, const gchar *name, gint value) {
    g_object_set(object, name, value, NULL);
}

static inline void cgtk_object_set_double(gpointer object, const gchar *name, gdouble value) {
    g_object_set(object, name, value, NULL);
}

/// Sets a text tag's tab stops, left-aligned, at `count` positions in pixels from the paragraph's start
/// (GtkTextTag:tabs, a PangoTabArray; the tag keeps its own copy).
static inline void cgtk_text_tag_set_tab_stops(gpointer tag, gint count, const gint *positions) {
    PangoTabArray *tabs = pango_tab_array_new(count > 0 ? count : 1, TRUE);
    for (gint i = 0; i < count; i++) pango_tab_array_set_tab(tabs, i, PANGO_TAB_LEFT, positions[i]);
    g_object_set(tag, "tabs", tabs, NULL);
    pango_tab_array_free(tabs);
}

/* Tab stops with their alignment (0 left, 1 right, 2 centre: PangoTabAlign; right and centre since Pango 1.50,
   https://docs.gtk.org/Pango/enum.TabAlign.html). */
static inline void cgtk_text_tag_set_aligned_tab_stops(gpointer tag, gint count, const gint *positions,
                                                       const gint *alignments) {
    PangoTabArray *tabs = pango_tab_array_new(count > 0 ? count : 1, TRUE);
    for (gint i = 0; i < count; i++) {
        PangoTabAlign align = alignments[i] == 1 ? PANGO_TAB_RIGHT : alignments[i] == 2 ? PANGO_TAB_CENTER : PANGO_TAB_LEFT;
        pango_tab_array_set_tab(tabs, i, align, positions[i]);
    }
    g_object_set(tag, "tabs", tabs, NULL);
    pango_tab_array_free(tabs);
}

static inline void cgtk_object_set_bool(gpointer object, const gchar *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}

static inline GtkTextTag *cgtk_text_buffer_create_tag(GtkTextBuffer *buffer, const gchar *name) {
    return gtk_text_buffer_create_tag(buffer, name, NULL);
}


static inline void cgtk_emit(gpointer instance, const gchar *signal) { g_signal_emit_by_name(instance, signal); }

/* Returns a newly allocated copy of the tag's name (NULL for anonymous tags); free with g_free. */
static inline gchar *cgtk_text_tag_dup_name(GtkTextTag *tag) {
    gchar *name = NULL;
    g_object_get(tag, "name", &name, NULL);
    return name;
}


/* A two-column list of strings for a GtkEntryCompletion, and one row set: gtk_list_store_new and
   gtk_list_store_set are variadic. */
static inline GtkListStore *cgtk_list_store_new_strings2(void) { return gtk_list_store_new(2, G_TYPE_STRING, G_TYPE_STRING); }
static inline void cgtk_list_store_append_strings2(GtkListStore *store, const gchar *a, const gchar *b) {
    GtkTreeIter iter;
    gtk_list_store_insert_with_values(store, &iter, -1, 0, a, 1, b, -1);
}
/* Column `column` of the row at `iter`, a new string for the caller to g_free. */
static inline gchar *cgtk_tree_model_dup_string(GtkTreeModel *model, GtkTreeIter *iter, gint column) {
    gchar *value = NULL;
    gtk_tree_model_get(model, iter, column, &value, -1);
    return value;
}

#endif
