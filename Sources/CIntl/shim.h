#ifndef GTKPROGRESS_CINTL_SHIM_H
#define GTKPROGRESS_CINTL_SHIM_H
/* GNU gettext as glibc ships it (libintl.h, part of libc: nothing to link). Swift's Glibc module leaves out
 * bindtextdomain and bind_textdomain_codeset. <https://www.gnu.org/software/gettext/manual/gettext.html#Triggering> */
#include <libintl.h>
#include <locale.h>
#endif
