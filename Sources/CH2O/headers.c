/* Request headers read as lists (see CH2O.h). */
#include "CH2O.h"

#include <string.h>

h2o_iovec_t tolt_h2o_header_list(h2o_req_t *req, const h2o_token_t *token) {
    ssize_t first = h2o_find_header(&req->headers, token, -1);
    if (first < 0) return h2o_iovec_init(NULL, 0);
    size_t total = req->headers.entries[first].value.len, lines = 1;
    for (ssize_t index = h2o_find_header(&req->headers, token, first); index >= 0;
         index = h2o_find_header(&req->headers, token, index)) {
        total += 2 + req->headers.entries[index].value.len;
        ++lines;
    }
    if (lines == 1) return req->headers.entries[first].value;
    char *joined = h2o_mem_alloc_pool(&req->pool, total), *at = joined;
    for (ssize_t index = first; index >= 0; index = h2o_find_header(&req->headers, token, index)) {
        if (at != joined) {
            memcpy(at, ", ", 2);
            at += 2;
        }
        memcpy(at, req->headers.entries[index].value.base, req->headers.entries[index].value.len);
        at += req->headers.entries[index].value.len;
    }
    return h2o_iovec_init(joined, total);
}
