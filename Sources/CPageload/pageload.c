/* The GObject side of PageloadBar: type, properties and signal. The bar itself (model, motion, painting,
 * accessibility) is GtkProgress's LoadIndicator, reached through the Swift part (Sources/Pageload).
 * GObject's boilerplate: https://docs.gtk.org/gobject/tutorial.html */
#include "pageload.h"
#include "pageload-impl.h"

struct _PageloadBar {
    GtkBin parent_instance;
    /* The Swift part; NULL once the bar is disposed (gtk_widget_destroy), after which the methods do nothing. */
    void *impl;
    char *curve;
    GdkRGBA *color;
    double fraction;
    gboolean loading;
};

G_DEFINE_TYPE (PageloadBar, pageload_bar, GTK_TYPE_BIN)

G_DEFINE_QUARK (pageload-curve-error-quark, pageload_curve_error)

GType
pageload_milestone_get_type (void)
{
    static gsize type = 0;
    static const GEnumValue values[] = {
        { PAGELOAD_MILESTONE_NAME_RESOLVED, "PAGELOAD_MILESTONE_NAME_RESOLVED", "name-resolved" },
        { PAGELOAD_MILESTONE_CONNECTED, "PAGELOAD_MILESTONE_CONNECTED", "connected" },
        { PAGELOAD_MILESTONE_SECURED, "PAGELOAD_MILESTONE_SECURED", "secured" },
        { PAGELOAD_MILESTONE_FIRST_BYTE, "PAGELOAD_MILESTONE_FIRST_BYTE", "first-byte" },
        { 0, NULL, NULL }
    };
    if (g_once_init_enter (&type))
        g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("PageloadMilestone"), values));
    return type;
}

GType
pageload_curve_error_get_type (void)
{
    static gsize type = 0;
    static const GEnumValue values[] = {
        { PAGELOAD_CURVE_ERROR_NO_SUCH_PRESET, "PAGELOAD_CURVE_ERROR_NO_SUCH_PRESET", "no-such-preset" },
        { PAGELOAD_CURVE_ERROR_UNREADABLE, "PAGELOAD_CURVE_ERROR_UNREADABLE", "unreadable" },
        { PAGELOAD_CURVE_ERROR_INVALID, "PAGELOAD_CURVE_ERROR_INVALID", "invalid" },
        { 0, NULL, NULL }
    };
    if (g_once_init_enter (&type))
        g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("PageloadCurveError"), values));
    return type;
}

enum { PROP_0, PROP_CURVE, PROP_FRACTION, PROP_COLOR, PROP_LOADING, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
pageload_bar_init (PageloadBar *self)
{
    GtkWidget *widget = GTK_WIDGET (self);
    gtk_widget_set_has_window (widget, FALSE);
    gtk_widget_set_halign (widget, GTK_ALIGN_FILL);
    gtk_widget_set_valign (widget, GTK_ALIGN_START);
    gtk_widget_set_hexpand (widget, TRUE);
    self->curve = g_strdup ("wechat");
    self->impl = pageload_impl_new (widget);
}

static void
pageload_bar_dispose (GObject *object)
{
    PageloadBar *self = PAGELOAD_BAR (object);
    if (self->impl != NULL) {
        void *impl = self->impl;
        self->impl = NULL;
        pageload_impl_free (impl);
    }
    G_OBJECT_CLASS (pageload_bar_parent_class)->dispose (object);
}

static void
pageload_bar_finalize (GObject *object)
{
    PageloadBar *self = PAGELOAD_BAR (object);
    g_free (self->curve);
    if (self->color != NULL)
        gdk_rgba_free (self->color);
    G_OBJECT_CLASS (pageload_bar_parent_class)->finalize (object);
}

/* Clicks on the strip reach the content below, as on LoadIndicator's: the overlay is told when the bar joins it. */
static void
pageload_bar_parent_set (GtkWidget *widget, GtkWidget *previous)
{
    GtkWidget *parent = gtk_widget_get_parent (widget);
    if (GTK_WIDGET_CLASS (pageload_bar_parent_class)->parent_set != NULL)
        GTK_WIDGET_CLASS (pageload_bar_parent_class)->parent_set (widget, previous);
    if (GTK_IS_OVERLAY (parent) && gtk_bin_get_child (GTK_BIN (parent)) != widget)
        gtk_overlay_set_overlay_pass_through (GTK_OVERLAY (parent), widget, TRUE);
}

static void
pageload_bar_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    PageloadBar *self = PAGELOAD_BAR (object);
    switch (id) {
    case PROP_CURVE: {
        GError *error = NULL;
        const char *name = g_value_get_string (value);
        if (!pageload_bar_set_curve (self, name != NULL ? name : "wechat", &error)) {
            g_warning ("%s", error->message);
            g_error_free (error);
        }
        break;
    }
    case PROP_COLOR:
        pageload_bar_set_color (self, g_value_get_boxed (value));
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
pageload_bar_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    PageloadBar *self = PAGELOAD_BAR (object);
    switch (id) {
    case PROP_CURVE:
        g_value_set_string (value, self->curve);
        break;
    case PROP_FRACTION:
        g_value_set_double (value, pageload_bar_get_fraction (self));
        break;
    case PROP_COLOR:
        g_value_set_boxed (value, self->color);
        break;
    case PROP_LOADING:
        g_value_set_boolean (value, pageload_bar_get_loading (self));
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
pageload_bar_class_init (PageloadBarClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS (klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
    object_class->dispose = pageload_bar_dispose;
    object_class->finalize = pageload_bar_finalize;
    object_class->set_property = pageload_bar_set_property;
    object_class->get_property = pageload_bar_get_property;
    widget_class->parent_set = pageload_bar_parent_set;

    properties[PROP_CURVE] = g_param_spec_string (
        "curve", "Curve", "The curve for the next load: a preset name or the path of a curve file", "wechat",
        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    properties[PROP_FRACTION] = g_param_spec_double (
        "fraction", "Fraction", "How far the bar stands, 0 to 1", 0.0, 1.0, 0.0,
        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    properties[PROP_COLOR] = g_param_spec_boxed (
        "color", "Color", "The bar's colour, or NULL for the theme's accent", GDK_TYPE_RGBA,
        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    properties[PROP_LOADING] = g_param_spec_boolean (
        "loading", "Loading", "Whether a load is under way", FALSE,
        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties (object_class, N_PROPS, properties);

    signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 0);
    gtk_widget_class_set_css_name (widget_class, "pageloadbar");
}

void
pageload_impl_changed (GtkWidget *widget, double fraction, int loading, int ended)
{
    PageloadBar *self = PAGELOAD_BAR (widget);
    g_object_freeze_notify (G_OBJECT (self));
    if (self->fraction != fraction) {
        self->fraction = fraction;
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
    if (self->loading != (loading != 0)) {
        self->loading = loading != 0;
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
    }
    g_object_thaw_notify (G_OBJECT (self));
    if (ended)
        g_signal_emit (self, signals[FINISHED], 0);
}

GtkWidget *
pageload_bar_new (void)
{
    return g_object_new (PAGELOAD_TYPE_BAR, NULL);
}

void
pageload_bar_start (PageloadBar *bar)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->impl != NULL)
        pageload_impl_start (bar->impl);
}

void
pageload_bar_finish (PageloadBar *bar)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->impl != NULL)
        pageload_impl_finish (bar->impl);
}

void
pageload_bar_fail (PageloadBar *bar)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->impl != NULL)
        pageload_impl_fail (bar->impl);
}

void
pageload_bar_cancel (PageloadBar *bar)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->impl != NULL)
        pageload_impl_cancel (bar->impl);
}

void
pageload_bar_set_real_progress (PageloadBar *bar, gint64 received, gint64 expected)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->impl != NULL)
        pageload_impl_real_progress (bar->impl, received, expected);
}

void
pageload_bar_milestone (PageloadBar *bar, PageloadMilestone milestone)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    g_return_if_fail (milestone >= PAGELOAD_MILESTONE_NAME_RESOLVED && milestone <= PAGELOAD_MILESTONE_FIRST_BYTE);
    if (bar->impl != NULL)
        pageload_impl_milestone (bar->impl, (int) milestone);
}

gboolean
pageload_bar_set_curve (PageloadBar *bar, const char *name_or_path, GError **error)
{
    g_return_val_if_fail (PAGELOAD_IS_BAR (bar), FALSE);
    g_return_val_if_fail (name_or_path != NULL, FALSE);
    g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
    char *message = NULL;
    int failure = pageload_impl_set_curve (bar->impl, name_or_path, &message);
    if (failure != 0) {
        g_set_error_literal (error, PAGELOAD_CURVE_ERROR, failure - 1, message);
        g_free (message);
        return FALSE;
    }
    if (g_strcmp0 (bar->curve, name_or_path) != 0) {
        g_free (bar->curve);
        bar->curve = g_strdup (name_or_path);
        g_object_notify_by_pspec (G_OBJECT (bar), properties[PROP_CURVE]);
    }
    return TRUE;
}

const char *
pageload_bar_get_curve (PageloadBar *bar)
{
    g_return_val_if_fail (PAGELOAD_IS_BAR (bar), NULL);
    return bar->curve;
}

double
pageload_bar_get_fraction (PageloadBar *bar)
{
    g_return_val_if_fail (PAGELOAD_IS_BAR (bar), 0.0);
    return bar->impl != NULL ? pageload_impl_fraction (bar->impl) : 0.0;
}

gboolean
pageload_bar_get_loading (PageloadBar *bar)
{
    g_return_val_if_fail (PAGELOAD_IS_BAR (bar), FALSE);
    return bar->impl != NULL && pageload_impl_loading (bar->impl);
}

void
pageload_bar_set_color (PageloadBar *bar, const GdkRGBA *color)
{
    g_return_if_fail (PAGELOAD_IS_BAR (bar));
    if (bar->color == NULL && color == NULL)
        return;
    if (bar->color != NULL && color != NULL && gdk_rgba_equal (bar->color, color))
        return;
    if (bar->color != NULL)
        gdk_rgba_free (bar->color);
    bar->color = color != NULL ? gdk_rgba_copy (color) : NULL;
    if (bar->impl != NULL)
        pageload_impl_set_color (bar->impl, color);
    g_object_notify_by_pspec (G_OBJECT (bar), properties[PROP_COLOR]);
}

GdkRGBA *
pageload_bar_get_color (PageloadBar *bar)
{
    g_return_val_if_fail (PAGELOAD_IS_BAR (bar), NULL);
    return bar->color != NULL ? gdk_rgba_copy (bar->color) : NULL;
}
