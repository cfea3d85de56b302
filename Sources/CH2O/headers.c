/* Request headers read as lists (see CH2O.h). */
#include "CH2O.h"

#include <string.h>

/* The most lines joined, counted from the last: the list is read from the right, and no reader walks more hops. */
#define TOLT_HEADER_LIST_LINES 32

h2o_iovec_t tolt_h2o_header_list(h2o_req_t *req, const h2o_token_t *token, size_t maximum) {
    /* HPACK lets a client repeat one stored value with a one-byte reference, so a header block can hold hundreds of
       thousands of lines: one pass over them, keeping the positions of the last few in a ring. */
    ssize_t ring[TOLT_HEADER_LIST_LINES];
    size_t lines = 0;
    for (ssize_t index = h2o_find_header(&req->headers, token, -1); index >= 0;
         index = h2o_find_header(&req->headers, token, index)) {
        ring[lines % TOLT_HEADER_LIST_LINES] = index;
        ++lines;
    }
    if (lines == 0) return h2o_iovec_init(NULL, 0);
    size_t newest = (lines - 1) % TOLT_HEADER_LIST_LINES;
    if (lines == 1) return req->headers.entries[ring[newest]].value;
    /* From the last line back, as many as fit in `maximum` bytes joined (the last one always). */
    size_t kept = 1, total = req->headers.entries[ring[newest]].value.len;
    size_t available = lines < TOLT_HEADER_LIST_LINES ? lines : TOLT_HEADER_LIST_LINES;
    while (kept < available) {
        size_t previous = (newest + TOLT_HEADER_LIST_LINES - kept) % TOLT_HEADER_LIST_LINES;
        size_t length = req->headers.entries[ring[previous]].value.len + 2;
        if (total + length > maximum) break;
        total += length;
        ++kept;
    }
    if (kept == 1) return req->headers.entries[ring[newest]].value;
    char *joined = h2o_mem_alloc_pool(&req->pool, total), *at = joined;
    for (size_t step = kept; step > 0; --step) {
        size_t slot = (newest + TOLT_HEADER_LIST_LINES - (step - 1)) % TOLT_HEADER_LIST_LINES;
        h2o_iovec_t value = req->headers.entries[ring[slot]].value;
        if (at != joined) {
            memcpy(at, ", ", 2);
            at += 2;
        }
        memcpy(at, value.base, value.len);
        at += value.len;
    }
    return h2o_iovec_init(joined, total);
}

h2o_iovec_t tolt_h2o_header_cookies(h2o_req_t *req, const h2o_token_t *token, size_t maximum) {
    ssize_t first = h2o_find_header(&req->headers, token, -1);
    if (first < 0) return h2o_iovec_init(NULL, 0);
    ssize_t second = h2o_find_header(&req->headers, token, first);
    if (second < 0) return req->headers.entries[first].value;
    /* Two passes: the joined length of the lines that fit, from the first, then the copy. */
    size_t total = 0, lines = 0;
    for (ssize_t index = first; index >= 0; index = h2o_find_header(&req->headers, token, index)) {
        size_t length = req->headers.entries[index].value.len + (lines == 0 ? 0 : 2);
        if (total + length > maximum) break;
        total += length;
        ++lines;
    }
    if (lines <= 1) return req->headers.entries[first].value;
    char *joined = h2o_mem_alloc_pool(&req->pool, total), *at = joined;
    size_t copied = 0;
    for (ssize_t index = first; copied < lines; index = h2o_find_header(&req->headers, token, index), ++copied) {
        h2o_iovec_t value = req->headers.entries[index].value;
        if (copied > 0) {
            memcpy(at, "; ", 2);
            at += 2;
        }
        memcpy(at, value.base, value.len);
        at += value.len;
    }
    return h2o_iovec_init(joined, total);
}
