#ifndef TOLT_CH2O_H
#define TOLT_CH2O_H
/* The one C shim over libh2o-evloop (h2o 2.2). Swift code under Sources/EdgeServer/H2O/ imports it; nothing else
   does. Declarations here, logic in the .c files beside this folder: macros and inline functions of h2o that do
   not import into Swift are wrapped as `tolt_h2o_…` functions. */

/* libh2o-evloop's headers default to libuv unless told otherwise; Debian ships no uv.h for it. */
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/multithread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* ---- requests ---- */
/* The accessors the link path calls on every request stay inline: each is a few loads. */

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

/** The value of the header with `token` when the request has exactly one; a zero-length vector when it has none or
    more than one, `*several` telling which: for a credential, where two lines are two claims to be someone and
    neither may be chosen. */
static inline h2o_iovec_t tolt_h2o_header_once(h2o_req_t *req, const h2o_token_t *token, int *several) {
    ssize_t index = h2o_find_header(&req->headers, token, -1);
    *several = index >= 0 && h2o_find_header(&req->headers, token, index) >= 0;
    if (index < 0 || *several) return h2o_iovec_init(NULL, 0);
    return req->headers.entries[index].value;
}

/** The values of the headers with `token`, in order, joined with ", " as one list (RFC 9110 5.3: field lines of
    one name are one comma-separated list), keeping only the last lines: at most 32, and as many as fit in `maximum`
    bytes (the last line always). One line is returned as it is; two or more are joined in the request's pool. A
    zero-length vector when there is none. */
h2o_iovec_t tolt_h2o_header_list(h2o_req_t *req, const h2o_token_t *token, size_t maximum);

/** The `Cookie` lines of a request joined with "; " as one (RFC 9113 8.2.3: an HTTP/2 client may send each cookie
    as a line of its own, and browsers do; the server must join them before reading), from the first line, as many
    whole lines as fit in `maximum` bytes. One line is returned as it is; two or more are joined in the request's
    pool. A zero-length vector when there is none. */
h2o_iovec_t tolt_h2o_header_cookies(h2o_req_t *req, const h2o_token_t *token, size_t maximum);

/** Points the C library's `stderr` stream (what libh2o's `fprintf(stderr, …)` writes to; libh2o 2.2 writes a line
    for every HTTP/2 frame of a type it does not know) at a line-buffered stream that writes each line to descriptor
    2 as `tolt-edge: library: <line>`, cut to `maximum_line` bytes, at most `per_second` lines a second, and says
    once a second how many it dropped. Descriptor 2 itself is untouched: what is written to it directly (the Swift
    runtime's fatal errors and backtraces, the server's own lines) goes out as before. 0, or -1 when the stream
    cannot be made (then nothing changes). Call once, before the loops run. */
int tolt_capture_library_stderr(int per_second, size_t maximum_line);

/** Says how many library lines the last second dropped, once that second is over: a loop calls it after each of its
    iterations (at least every 100 ms), so the count comes out even when no further line does. One atomic load when
    nothing was dropped. */
void tolt_report_dropped_library_lines(void);

/** Milliseconds since 1970 at which h2o began processing the request (no extra clock read). */
static inline int64_t tolt_h2o_request_millis(h2o_req_t *req) {
    return (int64_t)req->processed_at.at.tv_sec * 1000 + req->processed_at.at.tv_usec / 1000;
}

/** The request's URL scheme name (`http`, `https`). */
static inline h2o_iovec_t tolt_h2o_scheme(h2o_req_t *req) {
    if (req->scheme == NULL) return h2o_iovec_init("http", 4);
    return req->scheme->name;
}

/* ---- responses ---- */

/** Sends a whole response of `length` bytes. The body is copied into the request's pool unless `copy` is 0 (it
    then must live as long as the request). An empty body goes out as no buffer at all, and on HTTP/1 the head is
    built without h2o's per-response `sprintf` (see response.c). A held response was started already
    (`tolt_h2o_start_held`). */
void tolt_h2o_send_whole(h2o_req_t *req, const void *body, size_t length, int copy);

/** The generator of a held response (one whose click is not yet in the journal), in the request's pool. h2o calls
    `stop` when the request goes away before the response is sent (the client closed the connection), so the loop
    that holds it learns that it is gone; once the response is sent, h2o forgets the generator. */
typedef struct tolt_h2o_held {
    h2o_generator_t super;
    void *owner;
    size_t index;
    uint64_t generation;
} tolt_h2o_held;

/** Starts `req`'s response with a held record whose `stop` is called if the request goes away first. */
tolt_h2o_held *tolt_h2o_start_held(h2o_req_t *req, void (*stop)(h2o_generator_t *, h2o_req_t *));

/** A slot of `size` bytes in the request pool whose dispose callback runs when the request goes away, so whoever
    still holds the request (a worker's reply) learns that it is gone. */
void *tolt_h2o_alloc_watch(h2o_req_t *req, size_t size, void (*dispose)(void *));

/* ---- h2o's own errors ---- */

/** Makes every error with `status` that h2o sends itself, before any handler has the request (such as its 413 for a
    body above `max_request_entity_size`), go out with `reason`, the `header_count` headers in `headers` (name, value,
    name, value, …; names lower-case) and `body` in place of h2o's plain text; only for requests whose target (up to
    its query) is `path` unless `path` is empty. h2o runs the filters last added first, and the first that matches a
    request replaces its error, so a path's own is added after the general one. h2o's refusal stays as it was: it still stops reading at once and closes
    the connection after the answer. Everything is copied; call this before the first loop is created. See
    errors.c. */
void tolt_h2o_config_replace_error(h2o_globalconf_t *config, int status, h2o_iovec_t path, h2o_iovec_t reason,
                                   const h2o_iovec_t *headers, size_t header_count, h2o_iovec_t body);

/** How many of h2o's own errors with `status` for `path` (empty: any path) `tolt_h2o_config_replace_error` has replaced
    on `config`: requests h2o answered before any route. */
uint64_t tolt_h2o_config_replaced_errors(h2o_globalconf_t *config, int status, h2o_iovec_t path);

/* ---- HTTP/1 framing (RFC 9112) ---- */

/** Puts a handler before every path's own that settles the HTTP/1 framing h2o 2.2 lets through (framing.c): obs-fold,
    differing Content-Lengths or several Transfer-Encodings get h2o's own 400 (in the API's shape once
    `tolt_h2o_config_replace_error` has set it) and a closed connection; Transfer-Encoding beside Content-Length (or on
    HTTP/1.0) closes the connection after the answer; an absolute-form target is routed by its path. Also limits a
    chunk's size to the configuration's largest body (chunked.c). Call before the first loop is created. */
void tolt_h2o_framing_configure(h2o_globalconf_t *config);

/** Raises the largest chunk size the chunked decoder accepts (chunked.c) to `largest`; a larger one is refused at
    once. */
void tolt_h2o_chunked_limit(size_t largest);

/** Gives HTTP/1 requests for `path` (the target's path, `tolt_h2o_target_path`, compared exactly) a body limit of `limit` bytes, below
    the configuration's: a larger body gets h2o's own 413 (in the API's shape once `tolt_h2o_config_replace_error` has
    set it, with `path`'s message when it has one) from its Content-Length before any of it is read, or as soon as a
    chunked body decodes to more (bodylimit.c). Process-wide; call before the first loop is created, for at most 4
    paths of under 64 bytes; registering a path again changes its limit. */
void tolt_h2o_body_limit(const char *path, size_t limit);

/** The path of a request target as the client sent it, before any route is chosen: without the query, and without
    the scheme and authority of an absolute-form target (`http://host/client/claims?x` → `/client/claims`), as
    framing.c routes it (framing.c). */
h2o_iovec_t tolt_h2o_target_path(const char *target, size_t length);

/** Whether h2o's calls to picohttpparser's request parser reach bodylimit.c's (the executable's definition interposes
    libh2o-evloop's), which the early 413 of `tolt_h2o_body_limit` needs. */
int tolt_h2o_body_limit_is_active(void);

/** After the chunked decoder's call on `buf` (`input_length` bytes at the end of a connection's input, of which it
    decoded `decoded_length`, returning `result`, with `announced` bytes of the current chunk still to come): makes h2o
    refuse the body if it is a limited path's and has passed its limit, or its chunk has announced more
    (bodylimit.c). */
void tolt_h2o_body_limit_after_chunk(const char *buf, size_t input_length, size_t decoded_length, size_t announced,
                                     ssize_t result);

/** Whether h2o's calls to picohttpparser's chunked decoder reach the strict one in chunked.c (the executable's
    definition interposes the library's); 0 when the library's own lenient decoder runs. */
int tolt_h2o_chunked_decoder_is_ours(void);

/* ---- loops ---- */

/** A reply handed from a worker thread back to the loop that owns the request. */
typedef struct tolt_h2o_message {
    h2o_multithread_message_t super;
    void *payload;
} tolt_h2o_message;

/** Pops the first message of a receiver's list, or NULL when it is empty. */
tolt_h2o_message *tolt_h2o_pop_message(h2o_linklist_t *messages);

/** One loop's h2o context, with the receiver that takes worker replies, the entry that flushes held responses
    within the iteration that made them, and the Swift object that owns all three. */
typedef struct tolt_h2o_loop {
    h2o_context_t context;
    h2o_multithread_receiver_t receiver;
    h2o_timeout_entry_t flush;
    h2o_multithread_queue_t *queue;
    void *owner;
    /* Accepting (accept.c). `accept` lives as long as the record: h2o's TLS handshakes point at it until they end. */
    h2o_accept_ctx_t accept;
    /** The listening socket, NULL once closed. */
    h2o_socket_t *listener;
    /** Where new TLS connections take their certificate from; NULL for cleartext. */
    struct tolt_h2o_tls *tls;
    /** Every accepted connection's `tolt_h2o_connection`, handshakes included. */
    h2o_linklist_t connections;
    size_t open_connections;
    size_t max_connections;
    /** Whether the listener is out of the poll set (the limit reached, or no descriptor left). */
    int accepting_paused;
    /** Retries accepting a moment after the process ran out of descriptors. */
    h2o_timeout_entry_t accept_retry;
    /* Stalled connections (stall.c). */
    /** When the next sweep is due, in milliseconds of the event loop's clock. */
    uint64_t next_stall_sweep;
    /** Sweeps so far: marks the connections a sweep found waiting on HTTP/2 flow control. */
    uint32_t stall_sweeps;
} tolt_h2o_loop;

/** Creates a loop record: a new event loop, an h2o context on it, and the queue and receiver for worker replies
    (`deliver` runs on the loop thread with the received messages). */
tolt_h2o_loop *tolt_h2o_loop_create(h2o_globalconf_t *config, void *owner, h2o_multithread_receiver_cb deliver);

/** The receiver inside a loop record (a stable address, for other threads to send to). */
static inline h2o_multithread_receiver_t *tolt_h2o_loop_receiver(tolt_h2o_loop *loop) { return &loop->receiver; }

/** The loop record of the context that runs `req`. */
static inline tolt_h2o_loop *tolt_h2o_loop_of_request(h2o_req_t *req) { return (tolt_h2o_loop *)req->conn->ctx; }

/** The loop record that holds `receiver`. */
tolt_h2o_loop *tolt_h2o_loop_of_receiver(h2o_multithread_receiver_t *receiver);

/** The loop record whose flush entry is `entry`. */
tolt_h2o_loop *tolt_h2o_loop_of_flush(h2o_timeout_entry_t *entry);

/** Runs `flush` in the timeout phase of the current loop iteration (h2o's zero timeout), once however often it
    is asked. */
void tolt_h2o_loop_schedule_flush(tolt_h2o_loop *loop, h2o_timeout_cb flush);

/** Starts accepting connections on the listening descriptor `listener`; the loop owns it from now on. With `tls`,
    connections speak TLS with the certificate `tls` holds when they arrive. At most `max_connections` are open at
    once: at the limit, or when the process has no descriptor left, the listener leaves the poll set (new
    connections wait in the kernel's backlog) until a connection closes, or for 100 ms after a failed `accept`, so a
    loop never spins on a listener it cannot serve. See accept.c. */
void tolt_h2o_loop_accept(tolt_h2o_loop *loop, int listener, struct tolt_h2o_tls *tls, size_t max_connections);

/** Stops accepting and closes the listening socket (and its descriptor). */
void tolt_h2o_loop_stop_accepting(tolt_h2o_loop *loop);

/** Asks every open connection to close: h2o stops keep-alive and sends each HTTP/2 connection a GOAWAY, and the
    reading side of every accepted socket (TLS handshakes included) is shut down, so h2o reads its end and closes it
    in the next iteration. Returns how many connections were still open. Only the reading side is shut down: a
    response still being written goes out whole. */
size_t tolt_h2o_loop_close_connections(tolt_h2o_loop *loop);

/** Disposes of everything the loop record holds: receiver, queue, context, event loop (and its epoll
    descriptor, which h2o 2.2 leaves open), and the record itself. Every connection must be closed and no worker
    reply still on its way: h2o asserts that no timeout entry is left, and a reply sent to a freed receiver would
    write freed memory. Runs on the loop's thread: it also empties that thread's list of socket buffers kept for
    reuse, which h2o never frees. */
void tolt_h2o_loop_destroy(tolt_h2o_loop *loop);

/* ---- global configuration ---- */

/** A global configuration with one host and one handler at `/` calling `on_req`, with `max_request_entity_size`
    and no `server` header of h2o's own. */
h2o_globalconf_t *tolt_h2o_config_create(size_t max_request_entity_size,
                                         int (*on_req)(h2o_handler_t *, h2o_req_t *));

/** Disposes of a configuration made by `tolt_h2o_config_create`, after every loop using it is destroyed. */
void tolt_h2o_config_destroy(h2o_globalconf_t *config);

/* ---- TLS (tls.c) ---- */

/** A server certificate and key with the cipher policy, ALPN `h2` and `http/1.1`, shared by every loop and
    replaceable while they run: a connection takes the certificate current when it arrives and keeps it. */
typedef struct tolt_h2o_tls tolt_h2o_tls;

/** Loads the PEM certificate chain `certificate` and PEM private key `key`; NULL with a reason in `error` when
    they cannot be read or do not match. */
tolt_h2o_tls *tolt_h2o_tls_create(const char *certificate, const char *key, char *error, size_t error_size);

/** Loads a new certificate and key for the connections that arrive from now on; 0 when done, -1 with a reason in
    `error` (the current certificate then stays). Thread-safe. */
int tolt_h2o_tls_reload(tolt_h2o_tls *tls, const char *certificate, const char *key, char *error, size_t error_size);

/** Frees the holder; connections still open keep their own reference to their certificate. */
void tolt_h2o_tls_destroy(tolt_h2o_tls *tls);

/** The current context with a reference of the caller's own (release it with `SSL_CTX_free`). */
SSL_CTX *tolt_h2o_tls_acquire(tolt_h2o_tls *tls);

/* ---- connections (accept.c) ---- */

/** What the loop keeps per accepted connection, from its `accept` until h2o disposes of its socket. */
typedef struct tolt_h2o_connection {
    h2o_linklist_t link;
    tolt_h2o_loop *loop;
    h2o_socket_t *socket;
    /** HTTP/2 requests handled, and requests that went away before their answer (a stream reset, mostly). */
    uint32_t requests;
    uint32_t abandoned;
    /** Set once the connection was closed for resetting streams faster than it completed them. */
    int closed_for_resets;
    /* Write progress (stall.c), as the once-a-second sweep sees it. */
    /** When a sweep first found the connection owing its peer bytes with too little of them taken since, in
        milliseconds of the loop's clock; 0 while it owes nothing. */
    uint64_t owing_since;
    /** The bytes the peer acknowledged (TCP) at the last sweep that found output waiting on the socket, or
        UINT64_MAX when that sweep found none; and what was acknowledged since `owing_since`. */
    uint64_t acknowledged;
    uint64_t acknowledged_since;
    /** The sweep (`stall_sweeps`) that last found the connection's HTTP/2 answers held by flow control. */
    uint32_t flow_blocked_sweep;
    /** Set once the connection was closed for taking too little of its answers (stall.c). */
    int closed_for_stall;
    /* A chunked body for a path with a smaller limit (bodylimit.c). */
    /** In the loop thread's list of such connections while its request's body is read. */
    h2o_linklist_t limited_link;
    /** The path's limit, in bytes. */
    size_t body_limit;
} tolt_h2o_connection;

/** A connection that has had at least this many requests go away unanswered, more than half of its requests, is
    resetting streams faster than it completes them (HTTP/2 rapid reset) and is closed. */
#define TOLT_H2O_ABANDONED_LIMIT 100

/** The record of the connection carrying `req`, or NULL (a connection the loop did not accept). */
tolt_h2o_connection *tolt_h2o_connection_of(h2o_req_t *req);

/** Takes a closing connection out of bodylimit.c's list. */
void tolt_h2o_body_limit_forget(tolt_h2o_connection *connection);

/** The record of an accepted socket, or NULL (a socket the loop did not accept). */
tolt_h2o_connection *tolt_h2o_connection_of_socket(h2o_socket_t *socket);

/* Why a connection is being closed under its requests, which are to get nothing but an error: it reset more HTTP/2
   streams than it completed (`tolt_h2o_count_abandoned`), or it took too little of its answers for too long
   (`tolt_h2o_loop_close_stalled`). */
#define TOLT_H2O_CONNECTION_OPEN 0
#define TOLT_H2O_CLOSED_FOR_RESETS 1
#define TOLT_H2O_CLOSED_FOR_STALL 2

/** Counts an HTTP/2 request on its connection (HTTP/1 requests are not counted: one at a time, a client that
    leaves one closes its connection). Returns `TOLT_H2O_CONNECTION_OPEN`, or why the connection is being closed:
    the request is then to get nothing but an error. */
static inline int tolt_h2o_count_request(h2o_req_t *req) {
    if (req->version < 0x200) return TOLT_H2O_CONNECTION_OPEN;
    tolt_h2o_connection *connection = tolt_h2o_connection_of(req);
    if (connection == NULL) return TOLT_H2O_CONNECTION_OPEN;
    ++connection->requests;
    if (connection->closed_for_resets) return TOLT_H2O_CLOSED_FOR_RESETS;
    return connection->closed_for_stall ? TOLT_H2O_CLOSED_FOR_STALL : TOLT_H2O_CONNECTION_OPEN;
}

/** Counts a request that went away before its answer; when its connection has now abandoned more than half of
    its requests, and at least TOLT_H2O_ABANDONED_LIMIT, shuts the connection's socket down (h2o closes it on its
    next read) and returns 1 the first time. */
int tolt_h2o_count_abandoned(h2o_req_t *req);

/* ---- stalled connections (stall.c) ---- */

/** A connection owing its peer bytes that takes fewer than `TOLT_H2O_STALL_PROGRESS` of them in
    `TOLT_H2O_STALL_MILLIS` is closed: h2o 2.2 has no write timeout, and arms its HTTP/2 idle timeout only while no
    request is in progress, so a peer that stops reading (or keeps its HTTP/2 window at zero) would hold the
    connection, its answers' memory and its slot for ever. */
#define TOLT_H2O_STALL_MILLIS 10000
#define TOLT_H2O_STALL_PROGRESS 1024
/** How often the loop looks (in milliseconds); so a stalled connection is closed 10 to 11 s into its stall. */
#define TOLT_H2O_STALL_SWEEP_MILLIS 1000

/** Looks at every connection of the loop once `TOLT_H2O_STALL_SWEEP_MILLIS` have passed since the last look, and
    closes those whose peer has taken too little of what they owe it (see stall.c); returns how many it closed.
    Call after each event-loop iteration: between sweeps it is one comparison. */
size_t tolt_h2o_loop_sweep_stalled(tolt_h2o_loop *loop);

static inline size_t tolt_h2o_loop_close_stalled(tolt_h2o_loop *loop) {
    if (h2o_now(loop->context.loop) < loop->next_stall_sweep) return 0;
    return tolt_h2o_loop_sweep_stalled(loop);
}

/** Open connections of the loop (accepted and not yet disposed of). */
static inline size_t tolt_h2o_loop_open_connections(tolt_h2o_loop *loop) { return loop->open_connections; }

#endif
