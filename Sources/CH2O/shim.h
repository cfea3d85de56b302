#ifndef TOLT_CH2O_SHIM_H
#define TOLT_CH2O_SHIM_H
/* libh2o-evloop's headers default to libuv unless told otherwise; Debian ships no uv.h for it. */
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/multithread.h>
#include <sys/socket.h>
#include <stddef.h>
#include <string.h>

/** The peer address of a request's connection; returns its length, or 0 when unknown. */
static inline socklen_t tolt_h2o_peer(h2o_req_t *req, struct sockaddr_storage *out) {
    if (req->conn == NULL || req->conn->callbacks == NULL || req->conn->callbacks->get_peername == NULL) return 0;
    return req->conn->callbacks->get_peername(req->conn, (struct sockaddr *)out);
}

/** The value of the first header with `token`, or a zero-length vector. */
static inline h2o_iovec_t tolt_h2o_header(h2o_req_t *req, const h2o_token_t *token) {
    ssize_t index = h2o_find_header(&req->headers, token, -1);
    if (index < 0) return h2o_iovec_init(NULL, 0);
    return req->headers.entries[index].value;
}

/** A reply handed from a worker thread back to the loop that owns the request. */
typedef struct tolt_h2o_message {
    h2o_multithread_message_t super;
    void *payload;
} tolt_h2o_message;

_Static_assert(offsetof(tolt_h2o_message, super) == 0, "a message must start with its h2o link");

/** Pops the first message of a receiver's list, or NULL when it is empty. */
static inline tolt_h2o_message *tolt_h2o_pop_message(h2o_linklist_t *messages) {
    if (h2o_linklist_is_empty(messages)) return NULL;
    h2o_multithread_message_t *message =
        (h2o_multithread_message_t *)((char *)messages->next - offsetof(h2o_multithread_message_t, link));
    h2o_linklist_unlink(&message->link);
    return (tolt_h2o_message *)message;
}

/** A slot of `size` bytes in the request pool whose dispose callback runs when the request goes away, so
    whoever still holds the request (a worker's reply) learns that it is gone. */
static inline void *tolt_h2o_alloc_watch(h2o_req_t *req, size_t size, void (*dispose)(void *)) {
    return h2o_mem_alloc_shared(&req->pool, size, dispose);
}

/** The generator of a held response (one whose click is not yet in the journal), in the request's pool. h2o calls
    `stop` when the request goes away before the response is sent (the client closed the connection), so the
    loop that holds it learns that it is gone; once the response is sent, h2o forgets the generator. */
typedef struct tolt_h2o_held {
    h2o_generator_t super;
    void *owner;
    size_t index;
    uint64_t generation;
} tolt_h2o_held;

_Static_assert(offsetof(tolt_h2o_held, super) == 0, "a held record must start with its generator");

/** Starts `req`'s response with a held record whose `stop` is called if the request goes away first. */
static inline tolt_h2o_held *tolt_h2o_start_held(h2o_req_t *req, void (*stop)(h2o_generator_t *, h2o_req_t *)) {
    tolt_h2o_held *held = h2o_mem_alloc_pool(&req->pool, sizeof *held);
    held->super.proceed = NULL;
    held->super.stop = stop;
    /* A held response is always sent whole, with its length. Say so before starting: h2o sets up its output
       filters now, and its chunked encoder, seeing no length and no status yet, would end keep-alive. */
    req->res.content_length = 0;
    h2o_start_response(req, &held->super);
    return held;
}

/** The held record whose generator is `generator`. */
static inline tolt_h2o_held *tolt_h2o_held_of(h2o_generator_t *generator) { return (tolt_h2o_held *)generator; }

/** One loop's h2o context, with the receiver that takes worker replies, the entry that flushes held responses
    within the iteration that made them, and the Swift object that owns all three. */
typedef struct tolt_h2o_loop {
    h2o_context_t context;
    h2o_multithread_receiver_t receiver;
    h2o_timeout_entry_t flush;
    void *owner;
} tolt_h2o_loop;

_Static_assert(offsetof(tolt_h2o_loop, context) == 0, "the h2o context must start the loop record");

/** The receiver inside a loop record (a stable address, unlike a Swift inout of a field). */
static inline h2o_multithread_receiver_t *tolt_h2o_loop_receiver(tolt_h2o_loop *loop) { return &loop->receiver; }

/** The h2o context inside a loop record. */
static inline h2o_context_t *tolt_h2o_loop_context(tolt_h2o_loop *loop) { return &loop->context; }

/** The loop record of the context that runs `req`. */
static inline tolt_h2o_loop *tolt_h2o_loop_of_request(h2o_req_t *req) { return (tolt_h2o_loop *)req->conn->ctx; }

/** The loop record that holds `receiver`. */
static inline tolt_h2o_loop *tolt_h2o_loop_of_receiver(h2o_multithread_receiver_t *receiver) {
    return (tolt_h2o_loop *)((char *)receiver - offsetof(tolt_h2o_loop, receiver));
}

/** Runs `flush` in the timeout phase of the current loop iteration (h2o's zero timeout), once however often it
    is asked. h2o runs that phase after the iteration's requests, and the writes it starts complete within the
    same iteration, so a connection's state is unchanged when the next iteration begins: no `epoll_ctl`. */
static inline void tolt_h2o_loop_schedule_flush(tolt_h2o_loop *loop, h2o_timeout_cb flush) {
    if (h2o_timeout_is_linked(&loop->flush)) return;
    loop->flush.cb = flush;
    h2o_timeout_link(loop->context.loop, &loop->context.zero_timeout, &loop->flush);
}

/** The loop record whose flush entry is `entry`. */
static inline tolt_h2o_loop *tolt_h2o_loop_of_flush(h2o_timeout_entry_t *entry) {
    return (tolt_h2o_loop *)((char *)entry - offsetof(tolt_h2o_loop, flush));
}

/* h2o 2.2's HTTP/1 connection as lib/http1.c lays it out (the library keeps it private). It is used only to
   find a request's final output stream and to build the response head ourselves; `tolt_h2o_http1_final` checks
   the layout on every request against the pointers h2o set, and a request that does not match takes h2o's own
   path. */
struct tolt_h2o_http1_finalostream {
    h2o_ostream_t super;
    int sent_headers;
    struct {
        void *buf;
        h2o_ostream_pull_cb cb;
    } pull;
};

struct tolt_h2o_http1_conn {
    h2o_conn_t super;
    h2o_socket_t *sock;
    h2o_linklist_t _conns;
    h2o_timeout_t *_timeout;
    h2o_timeout_entry_t _timeout_entry;
    uint64_t _req_index;
    size_t _prevreqlen;
    size_t _reqsize;
    void *_req_entity_reader;
    struct tolt_h2o_http1_finalostream _ostr_final;
    struct {
        void *data;
        void *cb;
    } upgrade;
    h2o_req_t req;
};

/** The HTTP/1 final output stream of `req` when nothing sits above it and it has sent nothing yet, else NULL.
    The request must be the one embedded in its connection (`req->conn` is that connection) and h2o's output
    stream pointer must name the stream at the expected place, so a different layout is never written to. */
static inline struct tolt_h2o_http1_finalostream *tolt_h2o_http1_final(h2o_req_t *req) {
#if H2O_VERSION_MAJOR != 2 || H2O_VERSION_MINOR != 2
    return NULL; /* the layout above is the 2.2 series' (the same from 2.2.0 to 2.2.6); elsewhere h2o writes */
#endif
    if (req->version >= 0x200) return NULL;
    struct tolt_h2o_http1_conn *conn =
        (struct tolt_h2o_http1_conn *)((char *)req - offsetof(struct tolt_h2o_http1_conn, req));
    if (req->conn != &conn->super || req->_ostr_top != &conn->_ostr_final.super) return NULL;
    if (conn->_ostr_final.sent_headers) return NULL;
    return &conn->_ostr_final;
}

/** Writes the decimal digits of `value` at `dst`; returns the end. */
static inline char *tolt_h2o_put_decimal(char *dst, size_t value) {
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
static inline char *tolt_h2o_put(char *dst, const char *text, size_t length) {
    memcpy(dst, text, length);
    return dst + length;
}

/** The HTTP/1.1 response head h2o 2.2 would write (status line, Date, Connection, Content-Length when known, then
    the response headers in order), built with copies instead of h2o's per-response `sprintf`, which was about 5%
    of the link path's CPU. Returns a zero-length vector when a header needs h2o's own handling (Vary). */
static inline h2o_iovec_t tolt_h2o_http1_head(h2o_req_t *req) {
    static const char keepAlive[] = "keep-alive", closeText[] = "close";
    const char *connection = req->http1_is_persistent ? keepAlive : closeText;
    size_t connectionLength = req->http1_is_persistent ? sizeof(keepAlive) - 1 : sizeof(closeText) - 1;
    size_t reasonLength = strlen(req->res.reason);
    size_t size = sizeof("HTTP/1.1 999 \r\nDate: \r\nConnection: \r\nContent-Length: \r\n\r\n") + reasonLength +
                  H2O_TIMESTR_RFC1123_LEN + connectionLength + 20;
    for (size_t i = 0; i != req->res.headers.size; ++i) {
        const h2o_header_t *header = req->res.headers.entries + i;
        if (header->name == &H2O_TOKEN_VARY->buf) return h2o_iovec_init(NULL, 0);
        size += header->name->len + header->value.len + 4;
    }
    if (req->res.status < 100 || req->res.status > 999) return h2o_iovec_init(NULL, 0);

    h2o_context_t *context = req->conn->ctx;
    req->timestamps.response_start_at = *h2o_get_timestamp(context, NULL, NULL);
    char *head = h2o_mem_alloc_pool(&req->pool, size), *dst = head;
    dst = tolt_h2o_put(dst, "HTTP/1.1 ", 9);
    dst = tolt_h2o_put_decimal(dst, (size_t)req->res.status);
    *dst++ = ' ';
    dst = tolt_h2o_put(dst, req->res.reason, reasonLength);
    dst = tolt_h2o_put(dst, "\r\nDate: ", 8);
    dst = tolt_h2o_put(dst, context->_timestamp_cache.value->rfc1123, H2O_TIMESTR_RFC1123_LEN);
    dst = tolt_h2o_put(dst, "\r\nConnection: ", 14);
    dst = tolt_h2o_put(dst, connection, connectionLength);
    if (req->res.content_length != SIZE_MAX) {
        dst = tolt_h2o_put(dst, "\r\nContent-Length: ", 18);
        dst = tolt_h2o_put_decimal(dst, req->res.content_length);
    }
    *dst++ = '\r';
    *dst++ = '\n';
    for (size_t i = 0; i != req->res.headers.size; ++i) {
        const h2o_header_t *header = req->res.headers.entries + i;
        dst = tolt_h2o_put(dst, header->orig_name ? header->orig_name : header->name->base, header->name->len);
        *dst++ = ':';
        *dst++ = ' ';
        dst = tolt_h2o_put(dst, header->value.base, header->value.len);
        *dst++ = '\r';
        *dst++ = '\n';
    }
    *dst++ = '\r';
    *dst++ = '\n';
    return h2o_iovec_init(head, (size_t)(dst - head));
}

/** Sends a whole response of `length` bytes. The body is copied into the request's pool unless `copy` is 0 (it
    then must live as long as the request). Unlike `h2o_send_inline`, an empty body is sent as no buffer at all:
    h2o 2.2's writer takes a trailing zero-length buffer for an unfinished write and waits for `EPOLLOUT`, which
    cost every empty response two `epoll_ctl`, a `writev` and a loop iteration. A held response was started
    already (`tolt_h2o_start_held`). On HTTP/1 the head is built by
    `tolt_h2o_http1_head` and handed to h2o's output stream as already sent headers plus the body. */
static inline void tolt_h2o_send_whole(h2o_req_t *req, const void *body, size_t length, int copy) {
    static h2o_generator_t generator = {NULL, NULL};
    if (req->_generator == NULL) h2o_start_response(req, &generator); /* else started when it was held */
    int head = req->input.method.len == 4 && memcmp(req->input.method.base, "HEAD", 4) == 0;
    h2o_iovec_t buffers[2];
    size_t count = 0;
    struct tolt_h2o_http1_finalostream *final = tolt_h2o_http1_final(req);
    if (final != NULL) {
        buffers[0] = tolt_h2o_http1_head(req);
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

/** Milliseconds since 1970 at which h2o began processing the request (no extra clock read). */
static inline int64_t tolt_h2o_request_millis(h2o_req_t *req) {
    return (int64_t)req->processed_at.at.tv_sec * 1000 + req->processed_at.at.tv_usec / 1000;
}
#endif
