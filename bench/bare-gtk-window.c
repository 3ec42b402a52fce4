/* The floor any GTK 3 page viewer can reach: a window with a read-only text view showing a file's text, titled
 * with the file's <title>. No HTML parsing, no network, no GApplication. Usage: bare-gtk-window FILE
 * Built by bench/run.py: gcc -O2 bare-gtk-window.c $(pkg-config --cflags --libs gtk+-3.0) */
#include <gtk/gtk.h>
#include <string.h>

static gchar *title_of(const gchar *html) {
    const gchar *open = strstr(html, "<title>");
    if (!open) open = strstr(html, "<TITLE>");
    if (!open) return g_strdup("bare-gtk-window");
    open += strlen("<title>");
    const gchar *close = strstr(open, "</");
    return close ? g_strndup(open, close - open) : g_strdup(open);
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc != 2) {
        g_printerr("usage: bare-gtk-window FILE\n");
        return 2;
    }
    gchar *text = NULL;
    gsize length = 0;
    GError *error = NULL;
    if (!g_file_get_contents(argv[1], &text, &length, &error)) {
        g_printerr("bare-gtk-window: %s\n", error->message);
        return 1;
    }
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gchar *title = title_of(text);
    gtk_window_set_title(GTK_WINDOW(window), title);
    gtk_window_set_default_size(GTK_WINDOW(window), 900, 700);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
    GtkWidget *view = gtk_text_view_new();
    gtk_text_view_set_editable(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_cursor_visible(GTK_TEXT_VIEW(view), FALSE);
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)), text, (gint)length);
    gtk_container_add(GTK_CONTAINER(scrolled), view);
    gtk_container_add(GTK_CONTAINER(window), scrolled);
    gtk_widget_show_all(window);
    g_free(title);
    g_free(text);
    gtk_main();
    return 0;
}
