/* Requests and responses: reading a request, and sending a whole response fast on HTTP/1. */
#define _GNU_SOURCE /* memmem */
#include "CH2O.h"
#include "http1_conn.h"

#include <string.h>

void *tolt_h2o_alloc_watch(h2o_req_t *req, size_t size, void (*dispose)(void *)) {
    return h2o_mem_alloc_shared(&req->pool, size, dispose);
}

tolt_h2o_held *tolt_h2o_start_held(h2o_req_t *req, void (*stop)(h2o_generator_t *, h2o_req_t *)) {
    tolt_h2o_held *held = h2o_mem_alloc_pool(&req->pool, sizeof *held);
    held->super.proceed = NULL;
    held->super.stop = stop;
    /* A held response is always sent whole, with its length. Say so before starting: h2o sets up its output
       filters now, and its chunked encoder, seeing no length and no status yet, would end keep-alive. */
    req->res.content_length = 0;
    h2o_start_response(req, &held->super);
    return held;
}

_Static_assert(offsetof(tolt_h2o_held, super) == 0, "a held record must start with its generator");

/* The HTTP/1 connection's layout (http1_conn.h) is used only to find a request's final output stream and to build
   the response head ourselves; `http1_final` checks the layout on every request against the pointers h2o set, and a
   request that does not match takes h2o's own path. */

/** The HTTP/1 final output stream of `req` when nothing sits above it and it has sent nothing yet, else NULL. The
    request must be the one embedded in its connection (`req->conn` is that connection) and h2o's output stream
    pointer must name the stream at the expected place, so a different layout is never written to. */
static struct tolt_h2o_http1_finalostream *http1_final(h2o_req_t *req) {
#if !TOLT_H2O_KNOWN_HTTP1_LAYOUT
    return NULL;
#endif
    if (req->version >= 0x200) return NULL;
    struct tolt_h2o_http1_conn *conn =
        (struct tolt_h2o_http1_conn *)((char *)req - offsetof(struct tolt_h2o_http1_conn, req));
    if (req->conn != &conn->super || req->_ostr_top != &conn->_ostr_final.super) return NULL;
    if (conn->_ostr_final.sent_headers) return NULL;
    return &conn->_ostr_final;
}

/** Writes the decimal digits of `value` at `dst`; returns the end. */
static char *put_decimal(char *dst, size_t value) {
    char digits[20];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (count != 0) *dst++ = digits[--count];
    return dst;
}

/** Appends `text` of `length` bytes at `dst`; returns the end. */
static char *put(char *dst, const char *text, size_t length) {
    memcpy(dst, text, length);
    return dst + length;
}

/** Whether h2o 2.2 takes the request for Internet Explorer's (lib/http1.c `is_msie`: the User-Agent holds "; MSIE "),
    whose `Vary` it replaces with `Cache-Control: private` (IE would not cache a page that varies). Every link answer
    has a `Vary`, so this runs per tap: glibc's `memmem` rather than h2o's byte-by-byte `h2o_strstr`. */
static int is_msie(h2o_req_t *req) {
    static const char needle[] = "; MSIE ";
    ssize_t cursor = h2o_find_header(&req->headers, H2O_TOKEN_USER_AGENT, -1);
    if (cursor == -1) return 0;
    const h2o_iovec_t *agent = &req->headers.entries[cursor].value;
    return memmem(agent->base, agent->len, needle, sizeof(needle) - 1) != NULL;
}

/** The HTTP/1.1 response head h2o 2.2 would write (status line, Date, Connection, Content-Length when known, then
    the response headers in order, a `Vary` replaced for Internet Explorer as h2o replaces it), built with copies
    instead of h2o's per-response `sprintf`, which was about 5% of the link path's CPU. Returns a zero-length vector
    for a status h2o would refuse. */
static h2o_iovec_t http1_head(h2o_req_t *req) {
    static const char keepAlive[] = "keep-alive", closeText[] = "close";
    static const h2o_header_t cacheControlPrivate = {&H2O_TOKEN_CACHE_CONTROL->buf, NULL, {H2O_STRLIT("private")}};
    const char *connection = req->http1_is_persistent ? keepAlive : closeText;
    size_t connectionLength = req->http1_is_persistent ? sizeof(keepAlive) - 1 : sizeof(closeText) - 1;
    size_t reasonLength = strlen(req->res.reason);
    size_t size = sizeof("HTTP/1.1 999 \r\nDate: \r\nConnection: \r\nContent-Length: \r\n\r\n") + reasonLength +
                  H2O_TIMESTR_RFC1123_LEN + connectionLength + 20;
    /* Whether a Vary is replaced by `cacheControlPrivate`: -1 until a Vary asks, so only such an answer reads the
       User-Agent. */
    int msie = -1;
    for (size_t i = 0; i != req->res.headers.size; ++i) {
        const h2o_header_t *header = req->res.headers.entries + i;
        if (header->name == &H2O_TOKEN_VARY->buf) {
            if (msie == -1) msie = is_msie(req);
            if (msie) header = &cacheControlPrivate;
        }
        size += header->name->len + header->value.len + 4;
    }
    if (req->res.status < 100 || req->res.status > 999) return h2o_iovec_init(NULL, 0);

    h2o_context_t *context = req->conn->ctx;
    req->timestamps.response_start_at = *h2o_get_timestamp(context, NULL, NULL);
    char *head = h2o_mem_alloc_pool(&req->pool, size), *dst = head;
    dst = put(dst, "HTTP/1.1 ", 9);
    dst = put_decimal(dst, (size_t)req->res.status);
    *dst++ = ' ';
    dst = put(dst, req->res.reason, reasonLength);
    dst = put(dst, "\r\nDate: ", 8);
    dst = put(dst, context->_timestamp_cache.value->rfc1123, H2O_TIMESTR_RFC1123_LEN);
    dst = put(dst, "\r\nConnection: ", 14);
    dst = put(dst, connection, connectionLength);
    if (req->res.content_length != SIZE_MAX) {
        dst = put(dst, "\r\nContent-Length: ", 18);
        dst = put_decimal(dst, req->res.content_length);
    }
    *dst++ = '\r';
    *dst++ = '\n';
    for (size_t i = 0; i != req->res.headers.size; ++i) {
        const h2o_header_t *header = req->res.headers.entries + i;
        if (msie == 1 && header->name == &H2O_TOKEN_VARY->buf) header = &cacheControlPrivate;
        dst = put(dst, header->orig_name ? header->orig_name : header->name->base, header->name->len);
        *dst++ = ':';
        *dst++ = ' ';
        dst = put(dst, header->value.base, header->value.len);
        *dst++ = '\r';
        *dst++ = '\n';
    }
    *dst++ = '\r';
    *dst++ = '\n';
    return h2o_iovec_init(head, (size_t)(dst - head));
}

/* Unlike `h2o_send_inline`, an empty body is sent as no buffer at all: h2o 2.2's writer takes a trailing zero-length
   buffer for an unfinished write and waits for `EPOLLOUT`, which cost every empty response two `epoll_ctl`, a
   `writev` and a loop iteration. On HTTP/1 the head is built by `http1_head` and handed to h2o's output stream as
   already sent headers plus the body. */
void tolt_h2o_send_whole(h2o_req_t *req, const void *body, size_t length, int copy) {
    static h2o_generator_t generator = {NULL, NULL};
    if (req->_generator == NULL) h2o_start_response(req, &generator); /* else started when it was held */
    int head = req->input.method.len == 4 && memcmp(req->input.method.base, "HEAD", 4) == 0;
    h2o_iovec_t buffers[2];
    size_t count = 0;
    struct tolt_h2o_http1_finalostream *final = http1_final(req);
    if (final != NULL) {
        buffers[0] = http1_head(req);
        if (buffers[0].len != 0) {
            final->sent_headers = 1;
            count = 1;
        }
    }
    if (length != 0 && !head) {
        buffers[count++] = copy ? h2o_strdup(&req->pool, body, length) : h2o_iovec_init(body, length);
    }
    h2o_send(req, count == 0 ? NULL : buffers, count, H2O_SEND_STATE_FINAL);
}
