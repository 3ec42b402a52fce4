#include "ccurl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/ioctl.h>

/* The libcurl functions the loader calls, resolved once from libcurl.so.4 (the soname of libcurl 7.x and 8.x). */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_pause)(CURL *, int);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static bool loaded;

#define RESOLVE(field, name) \
    if (!(*(void **)&api.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name); return; }

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(easy_pause, "curl_easy_pause")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(multi_init, "curl_multi_init")
    RESOLVE(multi_cleanup, "curl_multi_cleanup")
    RESOLVE(multi_add_handle, "curl_multi_add_handle")
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle")
    RESOLVE(multi_socket_action, "curl_multi_socket_action")
    RESOLVE(multi_info_read, "curl_multi_info_read")
    RESOLVE(multi_strerror, "curl_multi_strerror")
    RESOLVE(multi_setopt, "curl_multi_setopt")
    loaded = true;
}

bool ccurl_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded && error && error_size) snprintf(error, error_size, "%s", load_error);
    return loaded;
}

/* Everything below runs only after ccurl_load() returned true. */
CURLcode ccurl_global_init(long flags) { return api.global_init(flags); }
CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLcode ccurl_easy_unpause(CURL *handle) { return api.easy_pause(handle, CURLPAUSE_CONT); }
CURLM *ccurl_multi_init(void) { return api.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return api.multi_socket_action(multi, socket, events, running);
}
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }
const char *ccurl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_write(CURL *h, curl_write_callback f) { return api.easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode ccurl_easy_setopt_header(CURL *h, curl_write_callback f) { return api.easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
CURLcode ccurl_easy_setopt_xferinfo(CURL *h, curl_xferinfo_callback f) { return api.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return api.easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return api.easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return api.easy_getinfo(h, i, v); }
CURLMcode ccurl_multi_setopt_pointer(CURLM *m, CURLMoption o, void *v) { return api.multi_setopt(m, o, v); }
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return api.multi_setopt(m, o, v); }
CURLMcode ccurl_multi_setopt_socketfunction(CURLM *m, curl_socket_callback f) { return api.multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f); }
CURLMcode ccurl_multi_setopt_timerfunction(CURLM *m, curl_multi_timer_callback f) { return api.multi_setopt(m, CURLMOPT_TIMERFUNCTION, f); }

int ccurl_socket_pending(curl_socket_t socket) {
    int pending = 0;
    return ioctl(socket, FIONREAD, &pending) == 0 ? pending : -1;
}
