/* Loops: creating one per thread, taking replies from workers, and taking it all apart again at shutdown. */
#include "CH2O.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

_Static_assert(offsetof(tolt_h2o_message, super) == 0, "a message must start with its h2o link");
_Static_assert(offsetof(tolt_h2o_loop, context) == 0, "the h2o context must start the loop record");
_Static_assert(offsetof(tolt_h2o_connection, link) == 0, "a connection record must start with its list link");

tolt_h2o_message *tolt_h2o_pop_message(h2o_linklist_t *messages) {
    if (h2o_linklist_is_empty(messages)) return NULL;
    h2o_multithread_message_t *message =
        (h2o_multithread_message_t *)((char *)messages->next - offsetof(h2o_multithread_message_t, link));
    h2o_linklist_unlink(&message->link);
    return (tolt_h2o_message *)message;
}

tolt_h2o_loop *tolt_h2o_loop_create(h2o_globalconf_t *config, void *owner, h2o_multithread_receiver_cb deliver) {
    tolt_h2o_loop *loop = calloc(1, sizeof *loop);
    if (loop == NULL) return NULL;
    h2o_context_init(&loop->context, h2o_evloop_create(), config);
    loop->owner = owner;
    loop->queue = h2o_multithread_create_queue(loop->context.loop);
    h2o_multithread_register_receiver(loop->queue, &loop->receiver, deliver);
    h2o_linklist_init_anchor(&loop->connections);
    return loop;
}

tolt_h2o_loop *tolt_h2o_loop_of_receiver(h2o_multithread_receiver_t *receiver) {
    return (tolt_h2o_loop *)((char *)receiver - offsetof(tolt_h2o_loop, receiver));
}

tolt_h2o_loop *tolt_h2o_loop_of_flush(h2o_timeout_entry_t *entry) {
    return (tolt_h2o_loop *)((char *)entry - offsetof(tolt_h2o_loop, flush));
}

/* h2o runs the zero-timeout phase after the iteration's requests, and the writes it starts complete within the same
   iteration, so a connection's state is unchanged when the next iteration begins: no `epoll_ctl`. */
void tolt_h2o_loop_schedule_flush(tolt_h2o_loop *loop, h2o_timeout_cb flush) {
    if (h2o_timeout_is_linked(&loop->flush)) return;
    loop->flush.cb = flush;
    h2o_timeout_link(loop->context.loop, &loop->context.zero_timeout, &loop->flush);
}

/** Shuts the reading side of a connection's socket down: its pending read sees the end of the stream, and h2o
    closes the connection as if the client had. The writing side stays open, so a response still being written
    goes out whole (and no write meets EPIPE). */
static void shut_down(h2o_socket_t *socket) {
    if (socket == NULL) return;
    int descriptor = h2o_socket_get_fd(socket);
    if (descriptor >= 0) shutdown(descriptor, SHUT_RD);
}

size_t tolt_h2o_loop_close_connections(tolt_h2o_loop *loop) {
    h2o_context_t *context = &loop->context;
    if (!context->shutdown_requested) h2o_context_request_shutdown(context);
    /* Every socket the loop accepted, whatever it speaks and whether or not its TLS handshake has finished: the
       shutdown request sent each HTTP/2 connection a GOAWAY, which still goes out on the writing side. */
    for (h2o_linklist_t *node = loop->connections.next; node != &loop->connections; node = node->next)
        shut_down(((tolt_h2o_connection *)node)->socket);
    return loop->open_connections;
}

/* h2o 2.2's epoll loop as lib/common/socket/evloop/epoll.c.h lays it out: its destroy function frees the loop but
   leaves the epoll descriptor open, one descriptor lost per loop. */
struct tolt_h2o_evloop_epoll {
    h2o_evloop_t super;
    int ep;
};

void tolt_h2o_loop_destroy(tolt_h2o_loop *loop) {
    h2o_evloop_t *evloop = loop->context.loop;
    h2o_multithread_unregister_receiver(loop->queue, &loop->receiver);
    h2o_multithread_destroy_queue(loop->queue);
    free(loop->queue);
    if (h2o_timeout_is_linked(&loop->flush)) h2o_timeout_unlink(&loop->flush);
    if (h2o_timeout_is_linked(&loop->accept_retry)) h2o_timeout_unlink(&loop->accept_retry);
    /* The shutdown request left HTTP/2's graceful-shutdown timer running (to resend GOAWAY a second later), even
       with no HTTP/2 connection: every connection is closed by now, so it has nothing left to do. */
    if (h2o_timeout_is_linked(&loop->context.http2._graceful_shutdown_timeout))
        h2o_timeout_unlink(&loop->context.http2._graceful_shutdown_timeout);
    /* Closed sockets are disposed of in the loop's next iteration. */
    h2o_evloop_run(evloop, 0);
    /* h2o_context_dispose destroys the context's own queue but does not free it. */
    h2o_multithread_queue_t *contextQueue = loop->context.queue;
    h2o_context_dispose(&loop->context);
    free(contextQueue);
#if H2O_VERSION_MAJOR == 2 && H2O_VERSION_MINOR == 2
    int ep = ((struct tolt_h2o_evloop_epoll *)evloop)->ep;
#else
    int ep = -1;
#endif
    h2o_evloop_destroy(evloop);
    if (ep >= 0) close(ep);
    free(loop);
    /* h2o keeps freed socket buffers for reuse in a thread-local list that nothing frees when the thread ends (its
       request-pool chunks too, in a list it does not export). This thread is about to end: free what it kept. */
    while (h2o_socket_buffer_prototype.allocator.cnt != 0)
        free(h2o_mem_alloc_recycle(&h2o_socket_buffer_prototype.allocator, 0));
}

h2o_globalconf_t *tolt_h2o_config_create(size_t max_request_entity_size,
                                         int (*on_req)(h2o_handler_t *, h2o_req_t *)) {
    h2o_globalconf_t *config = calloc(1, sizeof *config);
    h2o_config_init(config);
    config->max_request_entity_size = max_request_entity_size;
    /* No server_name: h2o 2.2 would format it into every response with sprintf; the server adds the same header
       from static bytes instead. */
    config->server_name = h2o_iovec_init(NULL, 0);
    /* At shutdown, HTTP/2 connections still open a second after their GOAWAY are closed this much later. */
    config->http2.graceful_shutdown_timeout = 500;
    h2o_hostconf_t *host = h2o_config_register_host(config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    h2o_pathconf_t *path = h2o_config_register_path(host, "/", 0);
    h2o_handler_t *handler = h2o_create_handler(path, sizeof *handler);
    handler->on_req = on_req;
    return config;
}

void tolt_h2o_config_destroy(h2o_globalconf_t *config) {
    h2o_config_dispose(config);
    free(config);
}
