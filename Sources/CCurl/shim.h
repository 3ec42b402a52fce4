#ifndef GTKPROGRESS_CCURL_SHIM_H
#define GTKPROGRESS_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic: Swift needs one typed wrapper per
   argument type. <https://curl.se/libcurl/c/curl_easy_setopt.html> */
static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_write(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode ccurl_easy_setopt_header(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
static inline CURLcode ccurl_easy_setopt_xferinfo(CURL *h, curl_xferinfo_callback f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }

static inline CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }

static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode ccurl_multi_setopt_socketfunction(CURLM *m, curl_socket_callback f) { return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f); }
static inline CURLMcode ccurl_multi_setopt_timerfunction(CURLM *m, curl_multi_timer_callback f) { return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f); }


/* Macros Swift cannot import because they are built from other macros or casts. */
static const curl_socket_t ccurl_socket_timeout = CURL_SOCKET_TIMEOUT;
static const long ccurl_global_default = CURL_GLOBAL_DEFAULT;

/* CURLPAUSE_CONT is built from other macros. <https://curl.se/libcurl/c/curl_easy_pause.html> */
static inline CURLcode ccurl_easy_unpause(CURL *h) { return curl_easy_pause(h, CURLPAUSE_CONT); }

/* CURLMsg keeps the transfer's result in a union. <https://curl.se/libcurl/c/curl_multi_info_read.html> */
static inline CURLcode ccurl_msg_result(const CURLMsg *m) { return m->data.result; }

#endif
