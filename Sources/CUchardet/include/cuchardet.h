#ifndef GTKPROGRESS_CUCHARDET_H
#define GTKPROGRESS_CUCHARDET_H
/* uchardet, Mozilla's universal charset detector as a C library
 * <https://www.freedesktop.org/wiki/Software/uchardet/>, opened with dlopen the first time a page without a
 * declared encoding needs it: the viewer's start-up and most pages never map it, nor the C++ runtime it needs
 * (libuchardet-dev gives the header; the package depends on libuchardet0). */
#include <stdbool.h>
#include <stddef.h>

/* The charset uchardet finds most likely for `data`, copied into `name` ("" when it has no guess). False, with
 * `name` holding the reason, when libuchardet.so.0 cannot be opened or refuses the data. */
bool cuchardet_detect(const char *data, size_t length, char *name, size_t name_size);

#endif
