#ifndef GTKPROGRESS_CGLIB_SHIM_H
#define GTKPROGRESS_CGLIB_SHIM_H
/* GLib alone: the main loop the loader runs on, without GTK. */
#include <glib.h>
#include <glib-unix.h> /* g_unix_fd_add_full: the loader watches libcurl's sockets with it */
#endif
