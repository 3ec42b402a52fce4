/* The floor any GTK 3 page viewer can reach: a window with a read-only text view showing a file's text, titled
 * with the file's <title>. No HTML parsing, no network, no GApplication.
 * Usage: bare-gtk-window FILE [SECONDS]
 * With SECONDS, the text goes in as a slow page arrives: 4 KB slices appended at the buffer's end, evenly over
 * SECONDS (ending at a line break where one is near, as the viewer's slices do, and never inside a character),
 * the window shown first.
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

struct slices {
    GtkTextBuffer *buffer;
    const gchar *text;
    gsize length, done;
};

/* Appends the next slice: about 4 KB, cut after the last newline in it, else after the first newline within 4 KB
 * more, else before a UTF-8 lead byte, as the viewer cuts its slices (PageView.lineEnd): GTK lays a line out whole,
 * so a line cut in two is laid out twice. */
static gboolean append_slice(gpointer data) {
    struct slices *s = data;
    gsize end = s->done + 4096 < s->length ? s->done + 4096 : s->length;
    if (end < s->length) {
        gsize cut = end;
        while (cut > s->done && s->text[cut - 1] != '\n') cut--;
        if (cut > s->done) end = cut;
        else {
            gsize limit = end + 4096 < s->length ? end + 4096 : s->length;
            for (cut = end; cut < limit && s->text[cut] != '\n'; cut++) {}
            if (cut < limit) end = cut + 1;
            else if (limit == s->length) end = limit;
            else while (end > s->done && (s->text[end] & 0xC0) == 0x80) end--;
        }
    }
    GtkTextIter at;
    gtk_text_buffer_get_end_iter(s->buffer, &at);
    gtk_text_buffer_insert(s->buffer, &at, s->text + s->done, (gint)(end - s->done));
    s->done = end;
    return s->done < s->length ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc != 2 && argc != 3) {
        g_printerr("usage: bare-gtk-window FILE [SECONDS]\n");
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
    struct slices slices = {gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)), text, length, 0};
    if (argc == 3) {
        double seconds = g_ascii_strtod(argv[2], NULL);
        guint every = (guint)(seconds * 1000.0 / ((double)length / 4096.0 + 1.0));
        g_timeout_add(every > 0 ? every : 1, append_slice, &slices);
    } else {
        gtk_text_buffer_set_text(slices.buffer, text, (gint)length);
    }
    gtk_container_add(GTK_CONTAINER(scrolled), view);
    gtk_container_add(GTK_CONTAINER(window), scrolled);
    gtk_widget_show_all(window);
    g_free(title);
    gtk_main();
    g_free(text);
    return 0;
}
