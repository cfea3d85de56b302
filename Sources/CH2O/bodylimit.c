/* A route's body limit below the configuration's, applied while h2o 2.2 reads an HTTP/1 body.

   h2o 2.2 reads a request's whole body before any handler sees the request, and knows one limit, the configuration's
   `max_request_entity_size` (1 MiB here, for webhooks). A route with a smaller one (claims: 16 KiB) could refuse a
   larger body only once all of it had arrived: a client that declared 100 KiB and sent less was waited for until
   h2o's request timeout (10 s), and then the connection closed without an answer. So a path registered with
   `tolt_h2o_body_limit` gets h2o's own 413 (in the API's shape by errors.c, with that path's message) as early as h2o
   gives its 413 for the configuration's limit:
   - a Content-Length above the path's limit is refused from the head, before any of the body is read. picohttpparser's
     `phr_parse_request`, which h2o calls through its procedure linkage table (as chunked.c's decoder), is wrapped
     here: once the library's parser has read a head for such a path, the Content-Length lines' values are replaced
     with one above any configuration's limit, so h2o's own check refuses the body (`create_entity_reader`). The
     request's bytes in the connection's input stay as they were; framing.c never sees the request.
   - a chunked body is refused as soon as what is decoded of it, with what its current chunk announces, passes the
     limit: the head marks the connection (its
     record in accept.c), and the decoder (chunked.c) finds the marked connection whose input it is decoding, and
     sets the connection's count of request bytes so that h2o's own check after the decoder
     (`inbuf->size - _reqsize >= max_request_entity_size`) refuses it.
   Either way h2o stops reading and closes the connection after the answer. The path is the request target up to its
   query, compared exactly, as the router compares an exact route. HTTP/2 is not covered: h2o 2.2 reads an HTTP/2 body
   frame by frame without these calls, and the route's handler still refuses a body over its limit once it has it. */
#define _GNU_SOURCE
#include "CH2O.h"
#include "http1_conn.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* picohttpparser's header record and request parser, as h2o 2.2 embeds them (Debian's headers do not carry
   picohttpparser.h). */
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};

typedef int (*parse_request_function)(const char *buf, size_t len, const char **method, size_t *method_len,
                                      const char **path, size_t *path_len, int *minor_version,
                                      struct phr_header *headers, size_t *num_headers, size_t last_len);

enum { MAX_LIMITED_PATHS = 4, MAX_LIMITED_PATH_LENGTH = 64 };

typedef struct {
    char path[MAX_LIMITED_PATH_LENGTH];
    size_t path_length;
    size_t limit;
} limited_path;

/* Registered before the first loop runs and only read afterwards; `limited_path_count` is published last. */
static limited_path limited_paths[MAX_LIMITED_PATHS];
static _Atomic size_t limited_path_count = 0;

/* A Content-Length above every configuration's limit (h2o_strtosize reads up to 19 digits): h2o refuses it with 413. */
static const char too_large[] = "9999999999999999999";

/* The connections of this thread's loop whose request is a chunked body for a limited path, in their records'
   `limited_link`; accept.c takes a record out when its connection closes. */
static __thread h2o_linklist_t limited_connections;

int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len, const char **path,
                      size_t *path_len, int *minor_version, struct phr_header *headers, size_t *num_headers,
                      size_t last_len);

/* The library's own parser, after this file's definition in the search order. */
static _Atomic(parse_request_function) library_parser = NULL;

static parse_request_function library_parse_request(void) {
    parse_request_function parse = atomic_load_explicit(&library_parser, memory_order_relaxed);
    if (parse == NULL) {
        parse = (parse_request_function)dlsym(RTLD_NEXT, "phr_parse_request");
        atomic_store_explicit(&library_parser, parse, memory_order_relaxed);
    }
    return parse;
}

int tolt_h2o_body_limit_is_active(void) {
    return dlsym(RTLD_DEFAULT, "phr_parse_request") == (void *)phr_parse_request && library_parse_request() != NULL;
}

void tolt_h2o_body_limit(const char *path, size_t limit) {
    /* Found now, so that a process without the library's parser stops at its start, not at its first request. */
    if (library_parse_request() == NULL) abort();
    size_t length = strlen(path), count = atomic_load(&limited_path_count);
    for (size_t i = 0; i != count; ++i) {
        if (limited_paths[i].path_length == length && memcmp(limited_paths[i].path, path, length) == 0) {
            /* Servers in one process (the tests) register the same limit while others' loops read it: no write. */
            if (limited_paths[i].limit != limit) limited_paths[i].limit = limit;
            return;
        }
    }
    if (count == MAX_LIMITED_PATHS || length >= MAX_LIMITED_PATH_LENGTH) abort(); /* a programming error */
    memcpy(limited_paths[count].path, path, length);
    limited_paths[count].path_length = length;
    limited_paths[count].limit = limit;
    atomic_store(&limited_path_count, count + 1);
}

/** The body limit of the request target `target` (its path, as `tolt_h2o_target_path` reads it, absolute form
    included), or 0 when its path has none. */
static size_t limit_of(const char *target, size_t length) {
    h2o_iovec_t path = tolt_h2o_target_path(target, length);
    size_t count = atomic_load_explicit(&limited_path_count, memory_order_acquire);
    for (size_t i = 0; i != count; ++i)
        if (limited_paths[i].path_length == path.len && memcmp(limited_paths[i].path, path.base, path.len) == 0)
            return limited_paths[i].limit;
    return 0;
}

static void unmark(tolt_h2o_connection *connection) {
    if (h2o_linklist_is_linked(&connection->limited_link)) h2o_linklist_unlink(&connection->limited_link);
    connection->body_limit = 0;
}

void tolt_h2o_body_limit_forget(tolt_h2o_connection *connection) { unmark(connection); }

/** The request h2o parses a head into, found from where it asks the method to go (`&req->input.method.base`, as
    lib/http1.c calls the parser); NULL when the other out-parameters are not that request's. */
static h2o_req_t *request_of(const char **method, size_t *method_len, const char **path, size_t *path_len) {
    h2o_req_t *req = (h2o_req_t *)((char *)method - offsetof(h2o_req_t, input.method.base));
    if (method_len != &req->input.method.len || (void *)path != (void *)&req->input.path.base ||
        path_len != &req->input.path.len || req->conn == NULL)
        return NULL;
    return req;
}

/** The HTTP/1 connection whose socket is `socket`, checked against the pointers h2o set; NULL when it does not match
    (or the layout is not known). */
static struct tolt_h2o_http1_conn *http1_conn_of(h2o_socket_t *socket) {
#if TOLT_H2O_KNOWN_HTTP1_LAYOUT
    struct tolt_h2o_http1_conn *conn = socket->data;
    if (conn == NULL || conn->sock != socket || conn->req.conn != &conn->super) return NULL;
    return conn;
#else
    (void)socket;
    return NULL;
#endif
}

/** Applies the target's limit to a head just parsed (see the top of the file). */
static void limit_body(h2o_req_t *req, const char *target, size_t target_length, struct phr_header *headers,
                       size_t count) {
    size_t limit = limit_of(target, target_length);
    /* A connection is unmarked once its chunked body ends (or closes), so one with no limit now needs nothing done:
       the common case, links, stops here. */
    if (limit == 0 && (limited_connections.next == NULL || h2o_linklist_is_empty(&limited_connections))) return;
    tolt_h2o_connection *connection = tolt_h2o_connection_of(req);
    if (connection == NULL) return;
    unmark(connection); /* a request before this one on the connection may have been marked */
    if (limit == 0) return;
    struct phr_header *length = NULL;
    int chunked = 0;
    for (size_t i = 0; i != count; ++i) {
        if (headers[i].name == NULL) continue; /* obs-fold: framing.c refuses the request */
        if (h2o_lcstris(headers[i].name, headers[i].name_len, H2O_STRLIT("transfer-encoding")))
            chunked = 1; /* h2o reads the body as chunked, or refuses the coding */
        else if (length == NULL && h2o_lcstris(headers[i].name, headers[i].name_len, H2O_STRLIT("content-length")))
            length = headers + i;
    }
    if (chunked) {
        /* Only a connection whose layout is known can be refused early; another's handler still refuses the body. */
        if (http1_conn_of(connection->socket) == NULL) return;
        if (limited_connections.next == NULL) h2o_linklist_init_anchor(&limited_connections);
        connection->body_limit = limit;
        h2o_linklist_insert(&limited_connections, &connection->limited_link);
        return;
    }
    /* h2o reads the first Content-Length line (framing.c refuses several that differ); a broken value stays h2o's. */
    if (length == NULL) return;
    size_t declared = h2o_strtosize(length->value, length->value_len);
    if (declared == SIZE_MAX || declared <= limit) return;
    for (size_t i = 0; i != count; ++i) {
        if (headers[i].name != NULL &&
            h2o_lcstris(headers[i].name, headers[i].name_len, H2O_STRLIT("content-length"))) {
            headers[i].value = too_large;
            headers[i].value_len = sizeof(too_large) - 1;
        }
    }
}

int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len, const char **path,
                      size_t *path_len, int *minor_version, struct phr_header *headers, size_t *num_headers,
                      size_t last_len) {
    parse_request_function parse = library_parse_request();
    if (parse == NULL) abort(); /* no request could be read at all; tolt_h2o_body_limit stops the start first */
    int length = parse(buf, len, method, method_len, path, path_len, minor_version, headers, num_headers, last_len);
    if (length > 0 && atomic_load_explicit(&limited_path_count, memory_order_relaxed) != 0) {
        h2o_req_t *req = request_of(method, method_len, path, path_len);
        if (req != NULL) limit_body(req, *path, *path_len, headers, *num_headers);
    }
    return length;
}

void tolt_h2o_body_limit_after_chunk(const char *buf, size_t input_length, size_t decoded_length, size_t announced,
                                     ssize_t result) {
    if (limited_connections.next == NULL || h2o_linklist_is_empty(&limited_connections)) return;
    for (h2o_linklist_t *node = limited_connections.next; node != &limited_connections; node = node->next) {
        tolt_h2o_connection *connection =
            (tolt_h2o_connection *)((char *)node - offsetof(tolt_h2o_connection, limited_link));
        h2o_socket_t *socket = connection->socket;
        h2o_buffer_t *input = socket->input;
        /* h2o decodes the end of the connection's input, from where the body decoded so far ends. */
        if (input == NULL || buf < input->bytes || buf + input_length != input->bytes + input->size) continue;
        struct tolt_h2o_http1_conn *conn = http1_conn_of(socket);
        /* A malformed body (h2o answers 400 and closes) has nothing more to limit. */
        if (conn == NULL || result == -1) {
            unmark(connection);
            return;
        }
        /* The body decoded so far lies between the head (`_reqsize` bytes) and `buf`; this call added `decoded`. A
           chunk announced past the limit is refused at once, as a Content-Length past it is, not waited for. (Both
           are at most the configuration's limit: chunked.c refuses a larger chunk size.) */
        size_t before = (size_t)(buf - input->bytes), body = before - conn->_reqsize + decoded_length;
        if (body + announced > connection->body_limit) {
            /* h2o sets the input's size to `before + decoded_length` and refuses the body when that, less `_reqsize`,
               reaches its limit: make it exactly the limit (an unsigned difference). h2o reads `_reqsize` again only
               to keep a connection alive, and this one closes after its 413. */
            conn->_reqsize = before + decoded_length - conn->super.ctx->globalconf->max_request_entity_size;
            unmark(connection);
        }
        /* A body that ended within its limit leaves the list: an idle keep-alive connection must not stay in it, as
           every chunked decode on this loop walks it. */
        if (result >= 0) unmark(connection);
        return;
    }
}
