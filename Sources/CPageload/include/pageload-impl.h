/* Between the GObject part of Pageload (pageload.c) and its Swift part (Sources/Pageload): not installed, and not
 * exported from the library (build-aux/pageload.map exports the public names only). */
#ifndef PAGELOAD_IMPL_H
#define PAGELOAD_IMPL_H

#include <glib.h>
#include <gtk/gtk.h>
#include <stdint.h>

/* Made in Swift. `bar` is the PageloadBar (a GtkBin): the indicator's widget is added to it. */
void *pageload_impl_new (GtkWidget *bar);
void pageload_impl_free (void *impl);
void pageload_impl_start (void *impl);
void pageload_impl_finish (void *impl);
void pageload_impl_fail (void *impl);
void pageload_impl_cancel (void *impl);
void pageload_impl_real_progress (void *impl, int64_t received, int64_t expected);
void pageload_impl_milestone (void *impl, int milestone);
/* 0 when the curve is in use (impl NULL: when it would be); else PageloadCurveError + 1, and *message (g_free) says
 * why. */
int pageload_impl_set_curve (void *impl, const char *name_or_path, char **message);
double pageload_impl_fraction (void *impl);
int pageload_impl_loading (void *impl);
/* NULL: the theme's colour. */
void pageload_impl_set_color (void *impl, const GdkRGBA *color);

/* Called by the Swift part after each change of the model: the fraction shown, whether a load is under way, and
 * whether the run ended (the bar went after finish, fail or cancel). */
void pageload_impl_changed (GtkWidget *bar, double fraction, int loading, int ended);

#endif
