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
    whoever still holds the request (a worker's reply, a held response) learns that it is gone. */
static inline void *tolt_h2o_alloc_watch(h2o_req_t *req, size_t size, void (*dispose)(void *)) {
    return h2o_mem_alloc_shared(&req->pool, size, dispose);
}

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

/** Sends a whole response of `length` bytes. The body is copied into the request's pool unless `copy` is 0 (it
    then must live as long as the request). Unlike `h2o_send_inline`, an empty body is sent as no buffer at all:
    h2o 2.2's writer takes a trailing zero-length buffer for an unfinished write and waits for `EPOLLOUT`, which
    cost every empty response two `epoll_ctl`, a `writev` and a loop iteration. */
static inline void tolt_h2o_send_whole(h2o_req_t *req, const void *body, size_t length, int copy) {
    static h2o_generator_t generator = {NULL, NULL};
    h2o_start_response(req, &generator);
    int head = req->input.method.len == 4 && memcmp(req->input.method.base, "HEAD", 4) == 0;
    if (length == 0 || head) {
        h2o_send(req, NULL, 0, H2O_SEND_STATE_FINAL);
        return;
    }
    h2o_iovec_t buffer = copy ? h2o_strdup(&req->pool, body, length) : h2o_iovec_init(body, length);
    h2o_send(req, &buffer, 1, H2O_SEND_STATE_FINAL);
}

/** Milliseconds since 1970 at which h2o began processing the request (no extra clock read). */
static inline int64_t tolt_h2o_request_millis(h2o_req_t *req) {
    return (int64_t)req->processed_at.at.tv_sec * 1000 + req->processed_at.at.tv_usec / 1000;
}
#endif
