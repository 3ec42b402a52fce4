#include "cuchardet.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <uchardet/uchardet.h>

/* The functions of uchardet.h the detector calls, resolved once from libuchardet.so.0. */
static struct {
    uchardet_t (*create)(void);
    void (*destroy)(uchardet_t);
    int (*handle_data)(uchardet_t, const char *, size_t);
    void (*data_end)(uchardet_t);
    const char *(*get_charset)(uchardet_t);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static bool loaded;

#define RESOLVE(field, symbol) \
    if (!(*(void **)&api.field = dlsym(library, symbol))) { \
        snprintf(load_error, sizeof load_error, "libuchardet.so.0 has no %s", symbol); return; }

static void load(void) {
    void *library = dlopen("libuchardet.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    RESOLVE(create, "uchardet_new")
    RESOLVE(destroy, "uchardet_delete")
    RESOLVE(handle_data, "uchardet_handle_data")
    RESOLVE(data_end, "uchardet_data_end")
    RESOLVE(get_charset, "uchardet_get_charset")
    loaded = true;
}

bool cuchardet_detect(const char *data, size_t length, char *name, size_t name_size) {
    if (!name || !name_size) return false;
    name[0] = 0;
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(name, name_size, "%s", load_error);
        return false;
    }
    uchardet_t detector = api.create();
    if (!detector) {
        snprintf(name, name_size, "uchardet_new failed");
        return false;
    }
    bool ok = api.handle_data(detector, data, length) == 0;
    if (ok) {
        api.data_end(detector);
        const char *charset = api.get_charset(detector);
        snprintf(name, name_size, "%s", charset ? charset : "");
    } else {
        snprintf(name, name_size, "uchardet refused the data");
    }
    api.destroy(detector);
    return ok;
}
