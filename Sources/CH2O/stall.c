/* Closing connections whose peer takes too little of what they owe it.

   h2o 2.2 has no write timeout. An HTTP/1 answer the peer does not read waits on a full socket for ever (and the
   pipelined requests behind it with it), and an HTTP/2 connection whose peer keeps its flow-control window at zero
   keeps its answers for ever: h2o arms its HTTP/2 idle timeout only while no request is in progress. Either holds a
   connection slot and the answers' memory for as long as the peer likes, at almost no cost to it.

   So once a second the loop looks at each of its connections. A connection owes its peer bytes when
   - h2o has handed its socket bytes the kernel has not taken yet (the send buffer is full: the peer reads slowly or
     not at all), or
   - HTTP/2 answers have body bytes that the peer's flow-control windows let none of out, and nothing else is being
     written.
   A connection that has owed bytes for TOLT_H2O_STALL_MILLIS, and whose peer's TCP acknowledged fewer than
   TOLT_H2O_STALL_PROGRESS bytes over that time, is closed; every TOLT_H2O_STALL_PROGRESS bytes acknowledged start
   the time again, so a slow reader that keeps reading (a phone on a bad network) is never closed. Only bytes
   acknowledged while output waits on the socket count: a window the peer opens lets h2o send at once, so the next
   look finds the bytes on the socket (where acknowledging them is progress) or the answers gone (nothing owed), and
   bytes the peer makes the server send beside a withheld window (PING acknowledgements) buy it no time. */
#include "CH2O.h"

#include <h2o/http2.h>
#include <h2o/http2_scheduler.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* h2o 2.2's HTTP/2 connection as include/h2o/http2_internal.h lays it out, up to the fields read here. Debian's
   libh2o-dev ships that header without the khash.h it includes, so it cannot be included. The layout is the same
   from 2.2.0 to 2.2.6; a connection is read only after its context and socket, found through the fields before and
   after `_conns`, point back at it. */
#define TOLT_H2O_KNOWN_HTTP2_LAYOUT (H2O_VERSION_MAJOR == 2 && H2O_VERSION_MINOR == 2)

struct tolt_h2o_http2_stream_counts {
    uint32_t open;
    uint32_t half_closed;
    /** Streams whose answer has body bytes (or its end) still to frame. */
    uint32_t send_body;
};

struct tolt_h2o_hpack_table {
    void *entries;
    size_t num_entries, entry_capacity, entry_start_index;
    size_t hpack_size, hpack_capacity, hpack_max_capacity;
};

/** h2o_http2_conn_state_t's H2O_HTTP2_CONN_STATE_IS_CLOSING: nothing more is sent. */
#define TOLT_H2O_HTTP2_CONN_IS_CLOSING 2

struct tolt_h2o_http2_conn {
    h2o_conn_t super;
    h2o_socket_t *sock;
    h2o_http2_settings_t peer_settings;
    void *streams;
    struct {
        uint32_t max_open;
        uint32_t max_processed;
    } pull_stream_ids;
    struct {
        uint32_t max_open;
    } push_stream_ids;
    struct {
        struct tolt_h2o_http2_stream_counts priority, pull, push;
    } num_streams;
    h2o_http2_scheduler_node_t scheduler;
    int state;
    h2o_linklist_t _conns;
    void *_read_expect;
    h2o_buffer_t *_http1_req_input;
    struct tolt_h2o_hpack_table _input_header_table;
    ssize_t _input_window;
    struct tolt_h2o_hpack_table _output_header_table;
    h2o_linklist_t _pending_reqs;
    h2o_timeout_entry_t _timeout_entry;
    h2o_buffer_t *_headers_unparsed;
    struct {
        h2o_buffer_t *buf;
        h2o_buffer_t *buf_in_flight;
        h2o_linklist_t streams_to_proceed;
        h2o_timeout_entry_t timeout_entry;
        /** The connection's send window (h2o_http2_window_t). */
        ssize_t window;
    } _write;
};

_Static_assert(offsetof(struct tolt_h2o_http2_conn, super) == 0, "an HTTP/2 connection starts with h2o_conn_t");

/** Whether the answers of an HTTP/2 connection wait on its peer's flow-control windows alone: bodies still to
    frame, nothing framed or being written, and either the connection's window closed or no stream able to send
    (h2o takes a stream out of its scheduler while the stream's window is closed). */
static int waits_on_flow_control(struct tolt_h2o_http2_conn *conn) {
    if (conn->state == TOLT_H2O_HTTP2_CONN_IS_CLOSING) return 0;
    if (conn->num_streams.pull.send_body + conn->num_streams.push.send_body == 0) return 0;
    if (h2o_socket_is_writing(conn->sock) || conn->_write.buf == NULL || conn->_write.buf->size != 0) return 0;
    return conn->_write.window <= 0 || !h2o_http2_scheduler_is_active(&conn->scheduler);
}

/** Marks, with `sweep`, the loop's connections whose HTTP/2 answers wait on flow control. */
static void mark_flow_blocked(tolt_h2o_loop *loop, uint32_t sweep) {
#if TOLT_H2O_KNOWN_HTTP2_LAYOUT
    h2o_linklist_t *anchor = &loop->context.http2._conns;
    for (h2o_linklist_t *node = anchor->next; node != anchor; node = node->next) {
        struct tolt_h2o_http2_conn *conn =
            (struct tolt_h2o_http2_conn *)((char *)node - offsetof(struct tolt_h2o_http2_conn, _conns));
        if (conn->super.ctx != &loop->context || conn->sock == NULL || conn->sock->data != conn) continue;
        tolt_h2o_connection *connection = tolt_h2o_connection_of_socket(conn->sock);
        if (connection != NULL && waits_on_flow_control(conn)) connection->flow_blocked_sweep = sweep;
    }
#else
    (void)loop;
    (void)sweep;
#endif
}

/** `acknowledged` when no baseline is known: the last look found nothing waiting on the socket, or the kernel did
    not say. */
#define TOLT_H2O_NO_BASELINE UINT64_MAX

/** The bytes of the connection's output its peer's TCP has acknowledged (Linux 4.1 and later), or
    TOLT_H2O_NO_BASELINE when the kernel does not say. */
static uint64_t acknowledged_bytes(h2o_socket_t *socket) {
    int descriptor = h2o_socket_get_fd(socket);
    if (descriptor < 0) return TOLT_H2O_NO_BASELINE;
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(descriptor, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return TOLT_H2O_NO_BASELINE;
    if (length < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof info.tcpi_bytes_acked) return TOLT_H2O_NO_BASELINE;
    return info.tcpi_bytes_acked;
}

/** Closes a stalled connection: both ways, as for rapid reset, so that h2o's pending write fails or its next read
    sees the end, and h2o closes the connection (answers, streams, socket) itself; with a reset in place of a FIN
    after the unsent bytes, so the kernel drops its send buffer at the close instead of trying to deliver it to a
    peer that does not read. Requests h2o parses from it meanwhile get an error without being routed. */
static void close_stalled(tolt_h2o_connection *connection) {
    connection->closed_for_stall = 1;
    int descriptor = h2o_socket_get_fd(connection->socket);
    if (descriptor < 0) return;
    struct linger reset = {.l_onoff = 1, .l_linger = 0};
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    shutdown(descriptor, SHUT_RDWR);
}

/** Starts the time of a connection owing its peer bytes (again). */
static void start_owing(tolt_h2o_connection *connection, uint64_t now, uint64_t acknowledged) {
    connection->owing_since = now;
    connection->acknowledged = acknowledged;
    connection->acknowledged_since = 0;
}

/** One look at a connection; returns 1 when it closed it. */
static int look_at(tolt_h2o_connection *connection, uint32_t sweep, uint64_t now) {
    if (connection->closed_for_stall || connection->closed_for_resets) return 0;
    int writing = h2o_socket_is_writing(connection->socket);
    if (!writing && connection->flow_blocked_sweep != sweep) {
        connection->owing_since = 0;
        return 0;
    }
    uint64_t acknowledged = writing ? acknowledged_bytes(connection->socket) : TOLT_H2O_NO_BASELINE;
    /* A kernel that does not say what was acknowledged cannot show a stall on the socket: no close for it. */
    if (connection->owing_since == 0 || (writing && acknowledged == TOLT_H2O_NO_BASELINE)) {
        start_owing(connection, now, acknowledged);
        return 0;
    }
    if (acknowledged != TOLT_H2O_NO_BASELINE && connection->acknowledged != TOLT_H2O_NO_BASELINE &&
        acknowledged > connection->acknowledged)
        connection->acknowledged_since += acknowledged - connection->acknowledged;
    connection->acknowledged = acknowledged;
    if (connection->acknowledged_since >= TOLT_H2O_STALL_PROGRESS) {
        start_owing(connection, now, acknowledged);
        return 0;
    }
    if (now - connection->owing_since < TOLT_H2O_STALL_MILLIS) return 0;
    close_stalled(connection);
    return 1;
}

size_t tolt_h2o_loop_sweep_stalled(tolt_h2o_loop *loop) {
    uint64_t now = h2o_now(loop->context.loop);
    loop->next_stall_sweep = now + TOLT_H2O_STALL_SWEEP_MILLIS;
    uint32_t sweep = ++loop->stall_sweeps;
    mark_flow_blocked(loop, sweep);
    size_t closed = 0;
    for (h2o_linklist_t *node = loop->connections.next; node != &loop->connections; node = node->next)
        closed += (size_t)look_at((tolt_h2o_connection *)node, sweep, now);
    return closed;
}
