/* The Pageload bar (libpageload-1) from C: a window with content, the bar over it, and buttons that simulate loads,
 * as Examples/bar-demo does in Swift. It builds with pkg-config alone:
 *
 *     cc -o bar-demo bar-demo.c $(pkg-config --cflags --libs pageload-1)
 *     ./bar-demo [fast|slow|failure|stall] [--curve wechat|smooth|real|FILE.json]
 */
#include <pageload.h>
#include <string.h>

/* One step of a simulated load: at `tenths` of a second after the start, a milestone, bytes, or the end. */
typedef enum { STEP_MILESTONE, STEP_BYTES, STEP_FINISH, STEP_FAIL } StepKind;
typedef struct { int tenths; StepKind kind; gint64 value, expected; } Step;

typedef struct {
    const char *name, *label;
    Step steps[48];
    int count;
} Script;

typedef struct {
    PageloadBar *bar;
    GtkLabel *status;
    const Script *script;
    int tenths, next;
    guint timer;
} Demo;

static Script scripts[4] = {
    { "fast", "_Fast load", { { 1, STEP_MILESTONE, PAGELOAD_MILESTONE_FIRST_BYTE, 0 }, { 3, STEP_FINISH, 0, 0 } }, 2 },
    { "slow", "_Slow load", { { 0 } }, 0 }, /* filled by make_slow */
    { "failure", "F_ailure", { { 3, STEP_MILESTONE, PAGELOAD_MILESTONE_FIRST_BYTE, 0 }, { 15, STEP_FAIL, 0, 0 } }, 2 },
    { "stall", "S_tall", { { 3, STEP_MILESTONE, PAGELOAD_MILESTONE_FIRST_BYTE, 0 }, { 5, STEP_BYTES, 2048, -1 } }, 2 },
};

static void
make_slow (Script *slow)
{
    static const PageloadMilestone milestones[] = { PAGELOAD_MILESTONE_NAME_RESOLVED, PAGELOAD_MILESTONE_CONNECTED,
                                                    PAGELOAD_MILESTONE_SECURED, PAGELOAD_MILESTONE_FIRST_BYTE };
    static const int at[] = { 2, 4, 6, 10 };
    int n = 0;
    for (int i = 0; i < 4; i++)
        slow->steps[n++] = (Step) { at[i], STEP_MILESTONE, milestones[i], 0 };
    /* 200 KB in 5 KB pieces over 8 s; bytes show only above the curve's hold. */
    for (int i = 1; i <= 40; i++)
        slow->steps[n++] = (Step) { 10 + i * 2, STEP_BYTES, i * 5000, 200000 };
    slow->steps[n++] = (Step) { 91, STEP_FINISH, 0, 0 };
    slow->count = n;
}

static gboolean
step (gpointer data)
{
    Demo *demo = data;
    demo->tenths++;
    while (demo->next < demo->script->count && demo->script->steps[demo->next].tenths <= demo->tenths) {
        const Step *s = &demo->script->steps[demo->next++];
        switch (s->kind) {
        case STEP_MILESTONE: pageload_bar_milestone (demo->bar, (PageloadMilestone) s->value); break;
        case STEP_BYTES: pageload_bar_set_real_progress (demo->bar, s->value, s->expected); break;
        case STEP_FINISH: pageload_bar_finish (demo->bar); break;
        case STEP_FAIL: pageload_bar_fail (demo->bar); break;
        }
    }
    if (pageload_bar_get_loading (demo->bar) && demo->next < demo->script->count)
        return G_SOURCE_CONTINUE;
    demo->timer = 0;
    return G_SOURCE_REMOVE;
}

static void
cancel_timer (Demo *demo)
{
    if (demo->timer != 0)
        g_source_remove (demo->timer);
    demo->timer = 0;
}

static void
simulate (Demo *demo, const Script *script)
{
    cancel_timer (demo);
    pageload_bar_start (demo->bar);
    char *text = g_strdup_printf ("Simulating a %s load…", script->name);
    gtk_label_set_text (demo->status, text);
    g_free (text);
    demo->script = script;
    demo->tenths = demo->next = 0;
    demo->timer = g_timeout_add (100, step, demo);
}

static void
on_clicked (GtkButton *button, Demo *demo)
{
    simulate (demo, g_object_get_data (G_OBJECT (button), "script"));
}

static void
on_stop (GtkButton *button, Demo *demo)
{
    (void) button;
    cancel_timer (demo);
    pageload_bar_cancel (demo->bar);
    gtk_label_set_text (demo->status, "Stopped: the bar went at once.");
}

static void
on_finished (PageloadBar *bar, Demo *demo)
{
    (void) bar;
    gtk_label_set_text (demo->status, "The load is over.");
}

int
main (int argc, char **argv)
{
    const char *curve = "wechat", *chosen = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp (argv[i], "--curve") == 0 && i + 1 < argc)
            curve = argv[++i];
        else
            chosen = argv[i];
    }
    gtk_init (&argc, &argv);
    make_slow (&scripts[1]);

    Demo demo = { 0 };
    demo.bar = PAGELOAD_BAR (pageload_bar_new ());
    GError *error = NULL;
    if (!pageload_bar_set_curve (demo.bar, curve, &error)) {
        g_printerr ("bar-demo: %s\n", error->message);
        g_error_free (error);
        return 2;
    }
    demo.status = GTK_LABEL (gtk_label_new ("Choose a load to simulate."));
    g_signal_connect (demo.bar, "finished", G_CALLBACK (on_finished), &demo);

    GtkWidget *window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title (GTK_WINDOW (window), "Pageload bar demo (C)");
    gtk_window_set_default_size (GTK_WINDOW (window), 640, 320);
    g_signal_connect (window, "destroy", G_CALLBACK (gtk_main_quit), NULL);

    GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    g_object_set (buttons, "margin", 6, NULL);
    for (int i = 0; i < 4; i++) {
        GtkWidget *button = gtk_button_new_with_mnemonic (scripts[i].label);
        g_object_set_data (G_OBJECT (button), "script", &scripts[i]);
        g_signal_connect (button, "clicked", G_CALLBACK (on_clicked), &demo);
        gtk_box_pack_start (GTK_BOX (buttons), button, FALSE, FALSE, 0);
    }
    GtkWidget *stop = gtk_button_new_with_mnemonic ("St_op");
    g_signal_connect (stop, "clicked", G_CALLBACK (on_stop), &demo);
    gtk_box_pack_start (GTK_BOX (buttons), stop, FALSE, FALSE, 0);

    /* Any content goes under the bar; the overlay keeps it from shifting when the bar appears. */
    GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
    g_object_set (content, "margin", 24, NULL);
    gtk_box_pack_start (GTK_BOX (content),
                        gtk_label_new ("The page, a document, a map: whatever the window shows while it loads."),
                        FALSE, FALSE, 0);
    gtk_box_pack_start (GTK_BOX (content), GTK_WIDGET (demo.status), FALSE, FALSE, 0);
    GtkWidget *overlay = gtk_overlay_new ();
    gtk_container_add (GTK_CONTAINER (overlay), content);
    gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (demo.bar));

    GtkWidget *layout = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_pack_start (GTK_BOX (layout), buttons, FALSE, FALSE, 0);
    gtk_box_pack_start (GTK_BOX (layout), overlay, TRUE, TRUE, 0);
    gtk_container_add (GTK_CONTAINER (window), layout);
    gtk_widget_show_all (window);

    for (int i = 0; chosen != NULL && i < 4; i++)
        if (strcmp (chosen, scripts[i].name) == 0)
            simulate (&demo, &scripts[i]);
    gtk_main ();
    cancel_timer (&demo);
    return 0;
}
