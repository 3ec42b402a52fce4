#ifndef GTKPROGRESS_CGUMBO_SHIM_H
#define GTKPROGRESS_CGUMBO_SHIM_H
#include <gumbo.h>

/* gumbo's node union is awkward from Swift; these read the parts the document model needs. */
static inline GumboElement *cgumbo_element(GumboNode *node) { return &node->v.element; }
static inline GumboText *cgumbo_text(GumboNode *node) { return &node->v.text; }
static inline GumboDocument *cgumbo_document(GumboNode *node) { return &node->v.document; }

#endif
