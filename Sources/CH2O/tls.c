/* TLS through h2o and OpenSSL: one SSL_CTX with the certificate, the cipher policy and ALPN, replaced whole on a
   reload. Connections hold their own reference to the context they started with, so a reload never disturbs them. */
#include "CH2O.h"

#include <openssl/err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct tolt_h2o_tls {
    pthread_mutex_t lock;
    SSL_CTX *context;
};

/* h2 first: a client offering both gets HTTP/2. h2o serves a connection as HTTP/2 when the protocol is one of its
   own h2 names, else as HTTP/1.1. */
static const h2o_iovec_t alpn_protocols[] = {{H2O_STRLIT("h2")}, {H2O_STRLIT("http/1.1")}, {NULL}};

/* TLS 1.2 with ECDHE key exchange and AEAD ciphers only (forward secrecy; no CBC, RSA key exchange, SHA-1 MACs or
   DHE), and TLS 1.3 with OpenSSL's suites (all AEAD). */
static const char tls12_ciphers[] = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                                    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                                    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

static void describe(char *error, size_t error_size, const char *what, const char *path) {
    unsigned long code = ERR_get_error();
    char reason[256] = "";
    if (code != 0) ERR_error_string_n(code, reason, sizeof reason);
    ERR_clear_error();
    snprintf(error, error_size, "%s%s%s%s%s", what, path ? " " : "", path ? path : "", code ? ": " : "", reason);
}

static SSL_CTX *load(const char *certificate, const char *key, char *error, size_t error_size) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (context == NULL) {
        describe(error, error_size, "cannot create a TLS context", NULL);
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    if (SSL_CTX_set_cipher_list(context, tls12_ciphers) != 1) {
        describe(error, error_size, "cannot set the TLS 1.2 ciphers", NULL);
        goto Fail;
    }
    if (SSL_CTX_use_certificate_chain_file(context, certificate) != 1) {
        describe(error, error_size, "cannot read the certificate chain", certificate);
        goto Fail;
    }
    if (SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1) {
        describe(error, error_size, "cannot read the private key", key);
        goto Fail;
    }
    if (SSL_CTX_check_private_key(context) != 1) {
        describe(error, error_size, "the private key does not match the certificate", key);
        goto Fail;
    }
    h2o_ssl_register_alpn_protocols(context, alpn_protocols);
    return context;
Fail:
    SSL_CTX_free(context);
    return NULL;
}

tolt_h2o_tls *tolt_h2o_tls_create(const char *certificate, const char *key, char *error, size_t error_size) {
    SSL_CTX *context = load(certificate, key, error, error_size);
    if (context == NULL) return NULL;
    tolt_h2o_tls *tls = calloc(1, sizeof *tls);
    if (tls == NULL) {
        SSL_CTX_free(context);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&tls->lock, NULL);
    tls->context = context;
    return tls;
}

int tolt_h2o_tls_reload(tolt_h2o_tls *tls, const char *certificate, const char *key, char *error, size_t error_size) {
    SSL_CTX *context = load(certificate, key, error, error_size);
    if (context == NULL) return -1;
    pthread_mutex_lock(&tls->lock);
    SSL_CTX *previous = tls->context;
    tls->context = context;
    pthread_mutex_unlock(&tls->lock);
    SSL_CTX_free(previous);
    return 0;
}

SSL_CTX *tolt_h2o_tls_acquire(tolt_h2o_tls *tls) {
    pthread_mutex_lock(&tls->lock);
    SSL_CTX *context = tls->context;
    SSL_CTX_up_ref(context);
    pthread_mutex_unlock(&tls->lock);
    return context;
}

void tolt_h2o_tls_destroy(tolt_h2o_tls *tls) {
    if (tls == NULL) return;
    SSL_CTX_free(tls->context);
    pthread_mutex_destroy(&tls->lock);
    free(tls);
}
