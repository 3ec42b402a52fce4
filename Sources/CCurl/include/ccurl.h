#ifndef GTKPROGRESS_CCURL_H
#define GTKPROGRESS_CCURL_H
#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>

/* libcurl, opened with dlopen at the first network load instead of linked: a viewer that starts on a local
   page then never maps libcurl and its TLS, LDAP, SSH and Kerberos libraries, and never initialises them.
   Only the ccurl_ functions below may be called from Swift; calling a curl_ function directly would need
   libcurl at link time. <https://man7.org/linux/man-pages/man3/dlopen.3.html> */

/* Opens libcurl.so.4 once and resolves what the loader uses; false with a message in `error` when it cannot. */
bool ccurl_load(char *error, size_t error_size);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_easy_unpause(CURL *handle);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *left);
const char *ccurl_multi_strerror(CURLMcode code);

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic: Swift needs one typed wrapper per
   argument type. <https://curl.se/libcurl/c/curl_easy_setopt.html> */
CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode ccurl_easy_setopt_write(CURL *h, curl_write_callback f);
CURLcode ccurl_easy_setopt_header(CURL *h, curl_write_callback f);
CURLcode ccurl_easy_setopt_xferinfo(CURL *h, curl_xferinfo_callback f);
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v);
CURLMcode ccurl_multi_setopt_pointer(CURLM *m, CURLMoption o, void *v);
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
CURLMcode ccurl_multi_setopt_socketfunction(CURLM *m, curl_socket_callback f);
CURLMcode ccurl_multi_setopt_timerfunction(CURLM *m, curl_multi_timer_callback f);

/* How many bytes wait to be read on `socket` (FIONREAD, ioctl(2) is variadic in C); -1 when it cannot tell. */
int ccurl_socket_pending(curl_socket_t socket);

/* Macros Swift cannot import because they are built from other macros or casts. */
static const curl_socket_t ccurl_socket_timeout = CURL_SOCKET_TIMEOUT;
static const long ccurl_global_default = CURL_GLOBAL_DEFAULT;

/* CURLMsg keeps the transfer's result in a union. <https://curl.se/libcurl/c/curl_multi_info_read.html> */
static inline CURLcode ccurl_msg_result(const CURLMsg *m) { return m->data.result; }

#endif
