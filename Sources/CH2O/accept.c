/* Accepting connections within a limit, and the record the loop keeps per connection (counting the requests that go
   away unanswered, to close a connection that resets HTTP/2 streams faster than it completes them; stall.c keeps
   its write progress there). */
#include "CH2O.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

static void on_accept(h2o_socket_t *listener, const char *error);

/* Takes the listener out of the poll set. h2o's loop is level-triggered: a listener left in it with a connection
   waiting that cannot be accepted (no descriptor left) wakes the loop again at once, forever. With `retry`, the loop
   tries again in 100 ms (the descriptor that frees may be another thread's); otherwise when a connection closes. */
static void pause_accepting(tolt_h2o_loop *loop, int retry) {
    if (!loop->accepting_paused) {
        h2o_socket_read_stop(loop->listener);
        loop->accepting_paused = 1;
    }
    if (retry && !h2o_timeout_is_linked(&loop->accept_retry))
        h2o_timeout_link(loop->context.loop, &loop->context.hundred_ms_timeout, &loop->accept_retry);
}

static void resume_accepting(tolt_h2o_loop *loop) {
    if (loop->listener == NULL || !loop->accepting_paused || loop->open_connections >= loop->max_connections) return;
    if (h2o_timeout_is_linked(&loop->accept_retry)) h2o_timeout_unlink(&loop->accept_retry);
    loop->accepting_paused = 0;
    h2o_socket_read_start(loop->listener, on_accept);
}

static void on_accept_retry(h2o_timeout_entry_t *entry) {
    resume_accepting((tolt_h2o_loop *)((char *)entry - offsetof(tolt_h2o_loop, accept_retry)));
}

/* h2o calls this once it has disposed of the socket (after a TLS shutdown, or an HTTP/2 connection's last write). */
static void on_connection_close(void *data) {
    tolt_h2o_connection *connection = data;
    tolt_h2o_loop *loop = connection->loop;
    h2o_linklist_unlink(&connection->link);
    tolt_h2o_body_limit_forget(connection);
    free(connection);
    --loop->open_connections;
    resume_accepting(loop);
}

static void on_accept(h2o_socket_t *listener, const char *error) {
    tolt_h2o_loop *loop = listener->data;
    if (error != NULL) return;
    if (loop->open_connections >= loop->max_connections) {
        pause_accepting(loop, 0);
        return;
    }
    tolt_h2o_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) {
        pause_accepting(loop, 1);
        return;
    }
    h2o_socket_t *socket = h2o_evloop_socket_accept(listener);
    if (socket == NULL) {
        int reason = errno;
        free(connection);
        /* Out of descriptors or memory: the connection stays in the backlog until there is room. Anything else
           (the peer gave up before the accept) concerns that connection alone. */
        if (reason == EMFILE || reason == ENFILE || reason == ENOBUFS || reason == ENOMEM) pause_accepting(loop, 1);
        return;
    }
    connection->loop = loop;
    connection->socket = socket;
    h2o_linklist_insert(&loop->connections, &connection->link);
    ++loop->open_connections;
    socket->on_close.cb = on_connection_close;
    socket->on_close.data = connection;
    if (loop->open_connections >= loop->max_connections) pause_accepting(loop, 0);
    if (loop->tls == NULL) {
        h2o_accept(&loop->accept, socket);
        return;
    }
    /* h2o_accept creates the connection's SSL object at once, which takes its own reference to the context: a
       reload may free the holder's reference right after this. */
    SSL_CTX *context = tolt_h2o_tls_acquire(loop->tls);
    loop->accept.ssl_ctx = context;
    h2o_accept(&loop->accept, socket);
    loop->accept.ssl_ctx = NULL;
    SSL_CTX_free(context);
}

void tolt_h2o_loop_accept(tolt_h2o_loop *loop, int listener, struct tolt_h2o_tls *tls, size_t max_connections) {
    loop->accept.ctx = &loop->context;
    loop->accept.hosts = loop->context.globalconf->hosts;
    loop->tls = tls;
    loop->max_connections = max_connections == 0 ? 1 : max_connections;
    loop->accept_retry.cb = on_accept_retry;
    loop->listener = h2o_evloop_socket_create(loop->context.loop, listener, H2O_SOCKET_FLAG_DONT_READ);
    loop->listener->data = loop;
    h2o_socket_read_start(loop->listener, on_accept);
}

void tolt_h2o_loop_stop_accepting(tolt_h2o_loop *loop) {
    if (loop->listener == NULL) return;
    if (h2o_timeout_is_linked(&loop->accept_retry)) h2o_timeout_unlink(&loop->accept_retry);
    if (!loop->accepting_paused) h2o_socket_read_stop(loop->listener);
    h2o_socket_close(loop->listener);
    loop->listener = NULL;
}

tolt_h2o_connection *tolt_h2o_connection_of_socket(h2o_socket_t *socket) {
    if (socket == NULL || socket->on_close.cb != on_connection_close) return NULL;
    return socket->on_close.data;
}

tolt_h2o_connection *tolt_h2o_connection_of(h2o_req_t *req) {
    if (req->conn == NULL || req->conn->callbacks == NULL || req->conn->callbacks->get_socket == NULL) return NULL;
    return tolt_h2o_connection_of_socket(req->conn->callbacks->get_socket(req->conn));
}

int tolt_h2o_count_abandoned(h2o_req_t *req) {
    if (req->version < 0x200) return 0;
    tolt_h2o_connection *connection = tolt_h2o_connection_of(req);
    if (connection == NULL || connection->closed_for_resets) return 0;
    ++connection->abandoned;
    if (connection->abandoned < TOLT_H2O_ABANDONED_LIMIT || (uint64_t)connection->abandoned * 2 <= connection->requests)
        return 0;
    /* Both ways: h2o's next read sees the end and closes the connection, and the client's next read does too. */
    connection->closed_for_resets = 1;
    int descriptor = h2o_socket_get_fd(connection->socket);
    if (descriptor >= 0) shutdown(descriptor, SHUT_RDWR);
    return 1;
}
