/* HTTP/1 framing that h2o 2.2 lets through, settled before any route (RFC 9112).

   h2o 2.2's HTTP/1 parser (lib/http1.c over picohttpparser) reads `Content-Length` and `Transfer-Encoding` itself and
   keeps neither among the request's headers. It takes the first of several Content-Length values and ignores the
   rest; lets Transfer-Encoding win over Content-Length, the last of several Transfer-Encodings winning; keeps the
   connection alive after either; passes an obs-fold line (one starting with a space or tab) on as a header with an
   empty name; and keeps an absolute-form target (`GET http://host/a/pk/SAM20 HTTP/1.1`) whole as the path. What it
   refuses itself (answered in the API's shape by errors.c): a Content-Length that is not all digits, a
   Transfer-Encoding other than `chunked`, malformed chunks (chunked.c makes that strict), an `Expect` other than
   `100-continue`, a head it cannot parse (its fixed plain-text 400, written past every filter).

   A handler placed before the server's own, on every path, settles the rest before any route sees the request:
   - obs-fold, two Content-Length values that differ, or more than one Transfer-Encoding: h2o's own 400, sent through
     the host's fallback path so that errors.c turns it into `400 bad_request` in the API's shape, and the connection
     closed after it (nothing after the request on it is read);
   - Transfer-Encoding beside Content-Length, or on an HTTP/1.0 request: the body was read as chunked (h2o's choice
     and RFC 9112 §6.3's); the request is answered as usual and the connection closed after the answer;
   - an absolute-form target: routed by its path, with the target's authority (RFC 9112 §3.2.2, §3.3).
   - a request with more than one `Host` line, or an HTTP/1.1 request without one: h2o's own 400, as above (RFC 9112
     §3.2 says MUST; h2o 2.2 answers the second for its default host and takes the last of several). An empty `Host`
     is valid, and HTTP/1.0 needs none. A cleartext request that upgrades to HTTP/2 (`Upgrade: h2c`, only with
     `--h2c`) is answered over HTTP/2 by h2o before any handler sees it as HTTP/1, so it is not checked.
   Which Content-Length, Transfer-Encoding and Host lines a request had is read from its head, which h2o 2.2 keeps
   at the start of the connection's input buffer until the response is sent (it consumes the request only then, so a
   pipelined request behind it is there too, after it); h2o keeps none of these among the request's headers. That is
   checked, not assumed: the head must begin with the request's method, and a head with a body that is not found
   there is refused. A request without a body (the link path's GETs) is read only up to its Host line: h2o points
   the request's authority at the last Host line's value in that head, or at its default host's name when there was
   none, so the lines before it are the only ones that could make two (browsers send Host first). */
#include "CH2O.h"

#include <stdint.h>
#include <string.h>

/** What a request head's framing and Host lines say. */
typedef struct {
    size_t content_lengths;
    int content_lengths_differ;
    size_t transfer_encodings;
    size_t hosts;
} framing_lines;

/** `[start, end)` without optional whitespace (spaces and tabs) around it. */
static h2o_iovec_t trimmed(const char *start, const char *end) {
    while (start != end && (*start == ' ' || *start == '\t')) ++start;
    while (end != start && (end[-1] == ' ' || end[-1] == '\t')) --end;
    return h2o_iovec_init(start, (size_t)(end - start));
}

/** The connection's input buffer, where h2o 2.2 keeps the request's head; `NULL` when there is none to read. */
static h2o_buffer_t *connection_input(h2o_req_t *req) {
    if (req->conn == NULL || req->conn->callbacks == NULL || req->conn->callbacks->get_socket == NULL) return NULL;
    h2o_socket_t *socket = req->conn->callbacks->get_socket(req->conn);
    return socket == NULL ? NULL : socket->input;
}

/** Reads the Content-Length, Transfer-Encoding and Host lines of `req`'s head from its connection's input buffer. Returns
    0, or -1 when the head is not where h2o 2.2 keeps it. */
static int read_framing_lines(h2o_req_t *req, framing_lines *lines) {
    h2o_buffer_t *input = connection_input(req);
    if (input == NULL) return -1;
    const char *p = input->bytes, *end = p + input->size;
    /* picohttpparser skips one empty line before the request line (some clients send CRLF after a body). */
    if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
        p += 2;
    else if (p != end && p[0] == '\n')
        ++p;
    h2o_iovec_t method = req->input.method;
    if ((size_t)(end - p) <= method.len || memcmp(p, method.base, method.len) != 0 || p[method.len] != ' ') return -1;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (eol == NULL) return -1;
    p = eol + 1;

    h2o_iovec_t first_length = h2o_iovec_init(NULL, 0);
    for (size_t count = 0; count <= H2O_MAX_HEADERS; ++count) {
        eol = memchr(p, '\n', (size_t)(end - p));
        if (eol == NULL) return -1;
        const char *stop = eol != p && eol[-1] == '\r' ? eol - 1 : eol;
        if (stop == p) return 0; /* the empty line that ends the head */
        const char *colon = p[0] == ' ' || p[0] == '\t' ? NULL : memchr(p, ':', (size_t)(stop - p));
        if (colon != NULL) {
            size_t name_length = (size_t)(colon - p);
            if (h2o_lcstris(p, name_length, H2O_STRLIT("content-length"))) {
                h2o_iovec_t value = trimmed(colon + 1, stop);
                if (lines->content_lengths++ == 0)
                    first_length = value;
                else if (!h2o_memis(value.base, value.len, first_length.base, first_length.len))
                    lines->content_lengths_differ = 1;
            } else if (h2o_lcstris(p, name_length, H2O_STRLIT("transfer-encoding"))) {
                ++lines->transfer_encodings;
            } else if (h2o_lcstris(p, name_length, H2O_STRLIT("host"))) {
                ++lines->hosts;
            }
        }
        p = eol + 1;
    }
    return -1; /* more lines than h2o takes: not the head it parsed */
}

/** How many Host lines a request without a body had: 0, 1, or 2 for two or more (see the top of the file); 1 when its
    head is not where h2o keeps it. */
static int host_lines(h2o_req_t *req) {
    h2o_buffer_t *input = connection_input(req);
    if (input == NULL) return 1;
    uintptr_t start = (uintptr_t)input->bytes, value = (uintptr_t)req->input.authority.base;
    if (value < start || value > start + input->size) return 0; /* no Host line: the default host's name */
    const char *line = input->bytes, *chosen = req->input.authority.base;
    const char *eol = memchr(line, '\n', (size_t)(chosen - line)); /* past the request line */
    while (eol != NULL) {
        line = eol + 1;
        eol = memchr(line, '\n', (size_t)(chosen - line));
        if (eol == NULL) break; /* the line h2o took */
        if (eol - line >= 5 && h2o_lcstris(line, 5, H2O_STRLIT("host:"))) return 2;
    }
    return 1;
}

/** Sends h2o's own 400 through the host's fallback path (errors.c's filter gives it the API's shape) and closes the
    connection after it. */
static int refuse(h2o_req_t *req) {
    h2o_req_bind_conf(req, req->hostconf, &req->hostconf->fallback_path);
    h2o_send_error_400(req, "Bad Request", "malformed framing", H2O_SEND_ERROR_HTTP1_CLOSE_CONNECTION);
    return 0;
}

h2o_iovec_t tolt_h2o_target_path(const char *target, size_t length) {
    const char *start = target, *end = target + length;
    size_t scheme = 0;
    if (length >= 7 && h2o_lcstris(target, 7, H2O_STRLIT("http://")))
        scheme = 7;
    else if (length >= 8 && h2o_lcstris(target, 8, H2O_STRLIT("https://")))
        scheme = 8;
    if (scheme != 0)
        for (start = target + scheme; start != end && *start != '/' && *start != '?';) ++start;
    const char *query = start == end ? NULL : memchr(start, '?', (size_t)(end - start));
    return h2o_iovec_init(start, (size_t)((query == NULL ? end : query) - start));
}

/** Routes an absolute-form target by its path: `http://host/a/pk?x` becomes the path `/a/pk?x` (the query where it
    was) with the authority `host`. */
static void take_absolute_form(h2o_req_t *req) {
    const char *target = req->path.base, *end = target + req->path.len;
    if (target == end || target[0] == '/') return;
    size_t scheme;
    if (req->path.len >= 7 && h2o_lcstris(target, 7, H2O_STRLIT("http://")))
        scheme = 7;
    else if (req->path.len >= 8 && h2o_lcstris(target, 8, H2O_STRLIT("https://")))
        scheme = 8;
    else
        return;
    const char *authority = target + scheme, *rest = authority;
    while (rest != end && *rest != '/' && *rest != '?') ++rest;
    req->authority = h2o_iovec_init(authority, (size_t)(rest - authority));
    req->path = h2o_iovec_init(rest, (size_t)(end - rest));
    /* h2o found the query in the whole target; the authority ends before it. */
    if (req->query_at != SIZE_MAX) req->query_at -= (size_t)(rest - target);
}

static int on_req(h2o_handler_t *self, h2o_req_t *req) {
    (void)self;
    if (req->version >= 0x200) return -1; /* HTTP/2 frames messages itself */
    take_absolute_form(req);
    for (size_t i = 0; i != req->headers.size; ++i)
        if (req->headers.entries[i].name->len == 0) return refuse(req); /* obs-fold */
    if (req->entity.base == NULL) { /* neither Content-Length nor Transfer-Encoding */
        int hosts = host_lines(req);
        return hosts > 1 || (hosts == 0 && req->version >= 0x101) ? refuse(req) : -1;
    }
    framing_lines lines = {0, 0, 0, 0};
    if (read_framing_lines(req, &lines) != 0 || lines.content_lengths_differ || lines.transfer_encodings > 1 ||
        lines.hosts > 1 || (lines.hosts == 0 && req->version >= 0x101))
        return refuse(req);
    if (lines.transfer_encodings != 0 && (lines.content_lengths != 0 || req->version < 0x101))
        req->http1_is_persistent = 0;
    return -1;
}

void tolt_h2o_framing_configure(h2o_globalconf_t *config) {
    tolt_h2o_chunked_limit(config->max_request_entity_size);
    for (h2o_hostconf_t **host = config->hosts; *host != NULL; ++host) {
        for (size_t i = 0; i != (*host)->paths.size; ++i) {
            h2o_pathconf_t *path = (*host)->paths.entries + i;
            h2o_handler_t *handler = h2o_create_handler(path, sizeof *handler);
            handler->on_req = on_req;
            /* h2o appends it; it goes first, before the server's own handler. */
            memmove(path->handlers.entries + 1, path->handlers.entries,
                    (path->handlers.size - 1) * sizeof *path->handlers.entries);
            path->handlers.entries[0] = handler;
        }
    }
}
