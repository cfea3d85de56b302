/* h2o's own errors: answering them in the API's shape instead of h2o's plain text.

   h2o 2.2 refuses some requests itself, before any handler has them. On HTTP/1 the body is read before the handler
   runs, and `lib/http1.c` answers 413 there when the Content-Length is above `max_request_entity_size`, or when a
   chunked body grows to it (the body is then not read further and the connection closes after the answer). It does
   so through `h2o_send_error_generic`, which, since no path has been chosen yet, binds the request to its host's
   fallback path, sets the status, reason, `Content-Length` and a `text/plain` Content-Type, and sends its text with
   `h2o_send_inline`: one final `h2o_send` of the whole text (none for HEAD). Starting that response runs the fallback
   path's output filters, so a filter there sees the error before anything is written and can change it.

   The filter lives on the fallback path only. The handler's path carries only what the handler answers itself (its
   own 413s are JSON already), and a filter there would be one more call on every link response, most of which are
   held, so their status is not even known when the filter runs. */
#include "CH2O.h"

#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

/** The answer that replaces h2o's own error with `status`: all of it copied, freed with the configuration. */
typedef struct tolt_h2o_error_filter {
    h2o_filter_t super;
    int status;
    /** The only request target (up to its query) whose error this replaces; empty for any. */
    h2o_iovec_t path;
    h2o_iovec_t reason;
    h2o_iovec_t *headers; /* name, value, name, value, … */
    size_t header_count;
    h2o_iovec_t body;
    /** How many answers this filter replaced: the metrics count them, as no route saw their requests. */
    _Atomic uint64_t replaced;
} tolt_h2o_error_filter;

/** The output stream that puts the replacement body where h2o's text would go. */
typedef struct tolt_h2o_error_ostream {
    h2o_ostream_t super;
    h2o_iovec_t body;
} tolt_h2o_error_ostream;

_Static_assert(offsetof(tolt_h2o_error_filter, super) == 0, "an error filter must start with its h2o filter");
_Static_assert(offsetof(tolt_h2o_error_ostream, super) == 0, "an error stream must start with its h2o stream");

/** Whether the response is h2o's own error text: `h2o_send_error_generic` always types it `text/plain`. */
static int is_plain_text(h2o_req_t *req) {
    ssize_t index = h2o_find_header(&req->res.headers, H2O_TOKEN_CONTENT_TYPE, -1);
    if (index < 0) return 0;
    h2o_iovec_t value = req->res.headers.entries[index].value;
    static const char plain[] = "text/plain";
    return value.len >= sizeof(plain) - 1 && memcmp(value.base, plain, sizeof(plain) - 1) == 0;
}

/* `h2o_send_inline` sends its text in one final call (HEAD: no buffer): whatever it sends, the replacement body goes
   in its place. The body lives in the filter, as long as the configuration, which outlives every loop. */
static void send_replacement(h2o_ostream_t *super, h2o_req_t *req, h2o_iovec_t *bufs, size_t bufcnt,
                             h2o_send_state_t state) {
    tolt_h2o_error_ostream *self = (tolt_h2o_error_ostream *)super;
    if (bufcnt != 0) {
        bufs = &self->body;
        bufcnt = 1;
    }
    h2o_ostream_send_next(super, req, bufs, bufcnt, state);
}

/** Whether `req`'s target's path (``tolt_h2o_target_path``) is `path`: the target as the client sent it, since h2o
    answers its own errors before any path is chosen. */
static int is_for_path(h2o_req_t *req, h2o_iovec_t path) {
    if (path.len == 0) return 1;
    if (req->input.path.base == NULL) return 0;
    h2o_iovec_t target = tolt_h2o_target_path(req->input.path.base, req->input.path.len);
    return target.len == path.len && memcmp(target.base, path.base, path.len) == 0;
}

static void on_setup_ostream(h2o_filter_t *super, h2o_req_t *req, h2o_ostream_t **slot) {
    tolt_h2o_error_filter *self = (tolt_h2o_error_filter *)super;
    /* Once a filter has replaced the text, the Content-Type is no longer plain text, so no later filter does. */
    if (req->res.status == self->status && is_plain_text(req) && is_for_path(req, self->path)) {
        /* Status and connection handling stay h2o's (`http1_is_persistent` is already 0 for a refused body). */
        req->res.reason = self->reason.base;
        req->res.content_length = self->body.len;
        memset(&req->res.headers, 0, sizeof req->res.headers);
        for (size_t i = 0; i != self->header_count; ++i) {
            h2o_iovec_t name = self->headers[2 * i], value = self->headers[2 * i + 1];
            h2o_add_header_by_str(&req->pool, &req->res.headers, name.base, name.len, 1, NULL, value.base, value.len);
        }
        tolt_h2o_error_ostream *ostream = (tolt_h2o_error_ostream *)h2o_add_ostream(req, sizeof *ostream, slot);
        ostream->super.do_send = send_replacement;
        ostream->body = self->body;
        slot = &ostream->super.next;
        atomic_fetch_add_explicit(&self->replaced, 1, memory_order_relaxed);
    }
    h2o_setup_next_ostream(req, slot);
}

static void dispose(h2o_filter_t *super) {
    tolt_h2o_error_filter *self = (tolt_h2o_error_filter *)super;
    free(self->path.base);
    free(self->reason.base);
    for (size_t i = 0; i != 2 * self->header_count; ++i) free(self->headers[i].base);
    free(self->headers);
    free(self->body.base);
}

/** A copy of `text` in memory of its own (NUL-terminated, as h2o wants a reason phrase). */
static h2o_iovec_t copy(h2o_iovec_t text) { return h2o_strdup(NULL, text.base == NULL ? "" : text.base, text.len); }

void tolt_h2o_config_replace_error(h2o_globalconf_t *config, int status, h2o_iovec_t path, h2o_iovec_t reason,
                                   const h2o_iovec_t *headers, size_t header_count, h2o_iovec_t body) {
    for (h2o_hostconf_t **host = config->hosts; *host != NULL; ++host) {
        tolt_h2o_error_filter *filter =
            (tolt_h2o_error_filter *)h2o_create_filter(&(*host)->fallback_path, sizeof *filter);
        filter->super.on_setup_ostream = on_setup_ostream;
        filter->super.dispose = dispose;
        filter->status = status;
        filter->path = copy(path);
        filter->reason = copy(reason);
        filter->headers = header_count == 0 ? NULL : h2o_mem_alloc(2 * header_count * sizeof *filter->headers);
        for (size_t i = 0; i != 2 * header_count; ++i) filter->headers[i] = copy(headers[i]);
        filter->header_count = header_count;
        filter->body = copy(body);
        atomic_init(&filter->replaced, 0);
    }
}

uint64_t tolt_h2o_config_replaced_errors(h2o_globalconf_t *config, int status, h2o_iovec_t path) {
    uint64_t total = 0;
    for (h2o_hostconf_t **host = config->hosts; *host != NULL; ++host) {
        for (size_t i = 0; i != (*host)->fallback_path.filters.size; ++i) {
            h2o_filter_t *filter = (*host)->fallback_path.filters.entries[i];
            if (filter->on_setup_ostream != on_setup_ostream) continue;
            tolt_h2o_error_filter *self = (tolt_h2o_error_filter *)filter;
            if (self->status == status && self->path.len == path.len &&
                (path.len == 0 || memcmp(self->path.base, path.base, path.len) == 0))
                total += atomic_load_explicit(&self->replaced, memory_order_relaxed);
        }
    }
    return total;
}
