/* Pageload: the GtkProgress page-load bar as a GObject widget, for C and, through GObject Introspection, for Python,
 * JavaScript (GJS), Vala and any other language with GObject bindings.
 *
 * The bar is a thin strip across the top of a GtkOverlay's content that moves along a time curve while a page loads
 * and leaves with a short run to the end and a fade:
 *
 *     GtkWidget *bar = pageload_bar_new ();
 *     gtk_overlay_add_overlay (GTK_OVERLAY (overlay), bar);
 *     pageload_bar_start (PAGELOAD_BAR (bar));             // a navigation began
 *     pageload_bar_milestone (PAGELOAD_BAR (bar), PAGELOAD_MILESTONE_FIRST_BYTE);
 *     pageload_bar_set_real_progress (PAGELOAD_BAR (bar), 4096, -1);
 *     pageload_bar_finish (PAGELOAD_BAR (bar));            // or _fail or _cancel
 *
 * The library is written in Swift (the GtkProgress package); this header is its whole C interface and carries the
 * annotations g-ir-scanner reads (https://gi.readthedocs.io/en/latest/annotations/giannotations.html).
 */
#ifndef PAGELOAD_H
#define PAGELOAD_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * PAGELOAD_CURVE_ERROR:
 *
 * The error domain of a curve that could not be loaded: see #PageloadCurveError.
 */
#define PAGELOAD_CURVE_ERROR (pageload_curve_error_quark ())

/**
 * PageloadCurveError:
 * @PAGELOAD_CURVE_ERROR_NO_SUCH_PRESET: the name is no preset and no path to a file
 * @PAGELOAD_CURVE_ERROR_UNREADABLE: the file could not be read (missing, a directory, no permission)
 * @PAGELOAD_CURVE_ERROR_INVALID: the file was read but is no valid curve (its JSON, a field, a value); the message
 *   names the file, the place and the problem, in the words of `gtkprogress --print-curve`
 *
 * Why a curve could not be loaded.
 */
typedef enum {
    PAGELOAD_CURVE_ERROR_NO_SUCH_PRESET,
    PAGELOAD_CURVE_ERROR_UNREADABLE,
    PAGELOAD_CURVE_ERROR_INVALID
} PageloadCurveError;

/**
 * pageload_curve_error_quark:
 *
 * The quark of #PAGELOAD_CURVE_ERROR.
 *
 * Returns: the error domain
 */
GQuark pageload_curve_error_quark (void);

/**
 * PageloadMilestone:
 * @PAGELOAD_MILESTONE_NAME_RESOLVED: the host name is resolved to an address
 * @PAGELOAD_MILESTONE_CONNECTED: the TCP connection is up
 * @PAGELOAD_MILESTONE_SECURED: the TLS handshake is done
 * @PAGELOAD_MILESTONE_FIRST_BYTE: the first byte of the response has arrived
 *
 * The steps of a load that a curve may give a level of the bar for (libcurl's `CURLINFO_*_TIME_T` points).
 */
typedef enum {
    PAGELOAD_MILESTONE_NAME_RESOLVED,
    PAGELOAD_MILESTONE_CONNECTED,
    PAGELOAD_MILESTONE_SECURED,
    PAGELOAD_MILESTONE_FIRST_BYTE
} PageloadMilestone;

GType pageload_milestone_get_type (void) G_GNUC_CONST;
#define PAGELOAD_TYPE_MILESTONE (pageload_milestone_get_type ())

GType pageload_curve_error_get_type (void) G_GNUC_CONST;
#define PAGELOAD_TYPE_CURVE_ERROR (pageload_curve_error_get_type ())

/**
 * PageloadBar:
 *
 * A page-load progress bar: a strip a few pixels tall across the top of a #GtkOverlay's content. Add it with
 * gtk_overlay_add_overlay(); clicks on it pass through to the content.
 *
 * It follows the curve chosen by #PageloadBar:curve (the `wechat` preset by default): it waits a moment before it
 * appears (a fast load shows no bar), climbs the curve, rises to a milestone's level, counts the document's bytes
 * above the curve's hold, pulses quietly when no byte came for three seconds, and at the end runs to the right edge
 * and fades. A failed load takes the theme's `error_color` where it stands, then fades.
 *
 * It follows the text direction (it grows from the right in a right-to-left locale) and the desktop's
 * reduced-motion setting (`gtk-enable-animations`: no glide, no fade, no pulse). Its accessible is a progress bar
 * whose value screen readers read on demand, and it is BUSY while a load is under way. Nothing of it runs while it
 * is hidden.
 */

/**
 * PageloadBar:curve: (setter set_curve) (getter get_curve)
 *
 * The curve for the next load: a preset (`wechat`, `smooth`, `real`) or the path of a curve file. Set through the
 * property, a file that cannot be used is a warning; pageload_bar_set_curve() returns it as a #GError.
 */

/**
 * PageloadBar:fraction: (getter get_fraction)
 *
 * How far the bar stands, from 0 to 1; notified as the bar moves (at most ten times a second).
 */

/**
 * PageloadBar:loading: (getter get_loading)
 *
 * Whether a load is under way.
 */

/**
 * PageloadBar:color: (setter set_color) (getter get_color)
 *
 * The bar's colour, or %NULL (the default) for the theme's accent.
 */

/**
 * PageloadBar::finished:
 * @bar: the bar
 *
 * The bar has gone after pageload_bar_finish(), pageload_bar_fail() or pageload_bar_cancel(): its run is over.
 */

#define PAGELOAD_TYPE_BAR (pageload_bar_get_type ())
G_DECLARE_FINAL_TYPE (PageloadBar, pageload_bar, PAGELOAD, BAR, GtkBin)

/**
 * pageload_bar_new:
 *
 * Makes a bar that follows the `wechat` curve; GTK must be initialised.
 *
 * Returns: (transfer floating) (type PageloadBar): the new bar, hidden until a load starts
 */
GtkWidget *pageload_bar_new (void);

/**
 * pageload_bar_start:
 * @bar: the bar
 *
 * A load began: the bar restarts from the curve's beginning, even when another load was under way.
 */
void pageload_bar_start (PageloadBar *bar);

/**
 * pageload_bar_finish:
 * @bar: the bar
 *
 * The load is done: the bar runs to the end, stays a moment, fades, and #PageloadBar::finished follows.
 */
void pageload_bar_finish (PageloadBar *bar);

/**
 * pageload_bar_fail:
 * @bar: the bar
 *
 * The load failed: the bar takes the error colour where it stands, then fades, and #PageloadBar::finished follows.
 */
void pageload_bar_fail (PageloadBar *bar);

/**
 * pageload_bar_cancel:
 * @bar: the bar
 *
 * The load was stopped or replaced: the bar goes at once, and #PageloadBar::finished follows.
 */
void pageload_bar_cancel (PageloadBar *bar);

/**
 * pageload_bar_set_real_progress:
 * @bar: the bar
 * @received: bytes of the document received so far
 * @expected: the document's length in bytes, or -1 when it is unknown (a chunked response)
 *
 * Bytes of the document arrived. They count only above the curve's `hold`; below it the time curve decides.
 */
void pageload_bar_set_real_progress (PageloadBar *bar, gint64 received, gint64 expected);

/**
 * pageload_bar_milestone:
 * @bar: the bar
 * @milestone: the step the load reached
 *
 * The load reached @milestone: the bar rises to the curve's level for it, if the curve gives one.
 */
void pageload_bar_milestone (PageloadBar *bar, PageloadMilestone milestone);

/**
 * pageload_bar_set_curve:
 * @bar: the bar
 * @name_or_path: (type filename): a preset (`wechat`, `smooth`, `real`) or the path of a curve file (`.json`)
 * @error: the place for an error
 *
 * Chooses the curve for the next load; a load under way keeps its own, so the bar never jumps. A file that cannot
 * be used leaves the curve as it was, and @error names the file and what is wrong with it, in the words of
 * `gtkprogress --print-curve`.
 *
 * Returns: %TRUE when the curve is in use, %FALSE with @error set otherwise
 */
gboolean pageload_bar_set_curve (PageloadBar *bar, const char *name_or_path, GError **error);

/**
 * pageload_bar_get_curve:
 * @bar: the bar
 *
 * The preset name or file path of the curve in use.
 *
 * Returns: (transfer none) (type filename): the name or path, as it was given
 */
const char *pageload_bar_get_curve (PageloadBar *bar);

/**
 * pageload_bar_get_fraction:
 * @bar: the bar
 *
 * How far the bar stands, from 0 to 1 (what screen readers read).
 *
 * Returns: the fraction shown; 0 while no load is under way
 */
double pageload_bar_get_fraction (PageloadBar *bar);

/**
 * pageload_bar_get_loading:
 * @bar: the bar
 *
 * Whether a load is under way: from pageload_bar_start() until pageload_bar_finish(), pageload_bar_fail() or
 * pageload_bar_cancel().
 *
 * Returns: %TRUE while a load is under way
 */
gboolean pageload_bar_get_loading (PageloadBar *bar);

/**
 * pageload_bar_set_color:
 * @bar: the bar
 * @color: (nullable): the bar's colour, or %NULL for the theme's accent (`theme_selected_bg_color`)
 *
 * Sets the bar's colour; a failed load's bar keeps the theme's error colour.
 */
void pageload_bar_set_color (PageloadBar *bar, const GdkRGBA *color);

/**
 * pageload_bar_get_color:
 * @bar: the bar
 *
 * The colour set by pageload_bar_set_color().
 *
 * Returns: (transfer full) (nullable): a copy of the colour, or %NULL when the theme's accent is used
 */
GdkRGBA *pageload_bar_get_color (PageloadBar *bar);

G_END_DECLS

#endif
