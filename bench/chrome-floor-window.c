/* The floor for a page viewer built from GTK 3's own widgets: what GTK alone needs to show the viewer's chrome
 * (Back, Forward, Reload, the address entry, a status line, GtkApplication's registration on the session bus)
 * and a page styled as the viewer styles it (headings, emphasis, code, underlined links), with no HTML parsing:
 * the page arrives as Pango markup made by bench/run.py (`page_markup`). It is what the bare window cannot say:
 * how much of a viewer's start-up GTK itself spends on the chrome and the styled text. The application id differs
 * from the viewer's, so neither forwards to the other. Usage: chrome-floor-window MARKUP-FILE TITLE
 * Built by bench/run.py: gcc -O2 chrome-floor-window.c $(pkg-config --cflags --libs gtk+-3.0) */
#include <gtk/gtk.h>

static gchar *markup;
static gsize markup_length;
static const gchar *title;

static GtkWidget *icon_button(const gchar *icon) {
    return gtk_button_new_from_icon_name(icon, GTK_ICON_SIZE_BUTTON);
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), title);
    gtk_window_set_default_size(GTK_WINDOW(window), 960, 720);

    GtkWidget *toolbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    gtk_style_context_add_class(gtk_widget_get_style_context(toolbar), "toolbar");
    g_object_set(toolbar, "margin", 4, NULL);
    GtkWidget *back = icon_button("go-previous-symbolic"), *forward = icon_button("go-next-symbolic");
    gtk_widget_set_sensitive(back, FALSE);
    gtk_widget_set_sensitive(forward, FALSE);
    gtk_box_pack_start(GTK_BOX(toolbar), back, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(toolbar), forward, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(toolbar), icon_button("view-refresh-symbolic"), FALSE, FALSE, 0);
    GtkWidget *entry = gtk_entry_new();
    gtk_entry_set_text(GTK_ENTRY(entry), title);
    gtk_box_pack_start(GTK_BOX(toolbar), entry, TRUE, TRUE, 0);

    GtkWidget *view = gtk_text_view_new();
    gtk_text_view_set_editable(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_cursor_visible(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 16);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 16);
    gtk_text_view_set_top_margin(GTK_TEXT_VIEW(view), 12);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(view));
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(buffer, &end);
    gtk_text_buffer_insert_markup(buffer, &end, markup, (gint)markup_length);
    GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
    gtk_container_add(GTK_CONTAINER(scrolled), view);
    GtkWidget *overlay = gtk_overlay_new();
    gtk_container_add(GTK_CONTAINER(overlay), scrolled);

    GtkWidget *status = gtk_label_new("Done");
    gtk_label_set_xalign(GTK_LABEL(status), 0);
    g_object_set(status, "margin-start", 8, "margin-end", 8, "margin-top", 3, "margin-bottom", 3, NULL);

    GtkWidget *column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_pack_start(GTK_BOX(column), toolbar, FALSE, FALSE, 0);
    gtk_box_pack_start(GTK_BOX(column), overlay, TRUE, TRUE, 0);
    gtk_box_pack_start(GTK_BOX(column), status, FALSE, FALSE, 0);
    gtk_container_add(GTK_CONTAINER(window), column);
    gtk_widget_show_all(window);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        g_printerr("usage: chrome-floor-window MARKUP-FILE TITLE\n");
        return 2;
    }
    GError *error = NULL;
    if (!g_file_get_contents(argv[1], &markup, &markup_length, &error)) {
        g_printerr("chrome-floor-window: %s\n", error->message);
        return 1;
    }
    title = argv[2];
    GtkApplication *app = gtk_application_new("org.gtkprogress.BenchFloor", G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *args[] = {argv[0], NULL};
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    return status;
}
