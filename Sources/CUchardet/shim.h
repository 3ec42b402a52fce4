#ifndef GTKPROGRESS_CUCHARDET_SHIM_H
#define GTKPROGRESS_CUCHARDET_SHIM_H
/* uchardet: Mozilla's universal charset detector as a C library. <https://www.freedesktop.org/wiki/Software/uchardet/> */
#include <uchardet.h>
#endif
