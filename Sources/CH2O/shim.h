#ifndef TOLT_CH2O_SHIM_H
#define TOLT_CH2O_SHIM_H
/* libh2o-evloop's headers default to libuv unless told otherwise; Debian ships no uv.h for it. */
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/multithread.h>
#include <sys/socket.h>
#include <stddef.h>

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

/** One loop's h2o context, with the receiver that takes worker replies and the Swift object that owns both. */
typedef struct tolt_h2o_loop {
    h2o_context_t context;
    h2o_multithread_receiver_t receiver;
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

/** Milliseconds since 1970 at which h2o began processing the request (no extra clock read). */
static inline int64_t tolt_h2o_request_millis(h2o_req_t *req) {
    return (int64_t)req->processed_at.at.tv_sec * 1000 + req->processed_at.at.tv_usec / 1000;
}
#endif
