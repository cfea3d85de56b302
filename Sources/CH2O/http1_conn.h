/* h2o 2.2's HTTP/1 connection as lib/http1.c lays it out (the library keeps it private), for response.c (the response
   head) and bodylimit.c (a route's smaller body limit). Whoever reads it checks it first against the pointers h2o set
   (the connection's request points back at it, its socket's data at the connection), and leaves a connection that
   does not match to h2o. */
#ifndef TOLT_H2O_HTTP1_CONN_H
#define TOLT_H2O_HTTP1_CONN_H

#include "CH2O.h"

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
    /** The request's head, then, once its body is read, head and body: what the connection's input holds of it. */
    size_t _reqsize;
    void *_req_entity_reader;
    struct tolt_h2o_http1_finalostream _ostr_final;
    struct {
        void *data;
        void *cb;
    } upgrade;
    h2o_req_t req;
};

_Static_assert(offsetof(struct tolt_h2o_http1_conn, super) == 0, "an HTTP/1 connection starts with h2o_conn_t");

/* The layout above is the 2.2 series' (the same from 2.2.0 to 2.2.6); elsewhere it is not read. */
#define TOLT_H2O_KNOWN_HTTP1_LAYOUT (H2O_VERSION_MAJOR == 2 && H2O_VERSION_MINOR == 2)

#endif
