#ifndef TOLT_COPENSSL_SHIM_H
#define TOLT_COPENSSL_SHIM_H
/* The low-level SHA-256 calls let HMAC reuse precomputed inner and outer states: the click path signs
   every click, and OpenSSL 3's EVP_MAC fetch per call costs several times more. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <string.h>

/** HMAC-SHA256 key schedule: the SHA-256 states after absorbing key^ipad and key^opad. */
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} tolt_hmac_key;

static inline void tolt_hmac_key_init(tolt_hmac_key *key, const unsigned char *secret, size_t length) {
    unsigned char block[64];
    unsigned char pad[64];
    memset(block, 0, sizeof block);
    if (length > 64) {
        SHA256(secret, length, block);
    } else {
        memcpy(block, secret, length);
    }
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x36;
    SHA256_Init(&key->inner);
    SHA256_Update(&key->inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = block[i] ^ 0x5c;
    SHA256_Init(&key->outer);
    SHA256_Update(&key->outer, pad, 64);
}

/** Writes the 32-byte HMAC-SHA256 of `message` under a prepared key into `out`. */
static inline void tolt_hmac_sha256(const tolt_hmac_key *key, const unsigned char *message, size_t length,
                                    unsigned char out[32]) {
    SHA256_CTX ctx = key->inner;
    unsigned char inner[32];
    SHA256_Update(&ctx, message, length);
    SHA256_Final(inner, &ctx);
    ctx = key->outer;
    SHA256_Update(&ctx, inner, 32);
    SHA256_Final(out, &ctx);
}

/** Limits a TLS context to protocol versions `min` to `max` (such as TLS1_2_VERSION; 0 for no limit): the OpenSSL
    calls are macros, which Swift cannot call. The tests' TLS client uses it to offer what old clients offer. */
static inline int tolt_ssl_ctx_set_versions(SSL_CTX *ctx, int min, int max) {
    return SSL_CTX_set_min_proto_version(ctx, min) == 1 && SSL_CTX_set_max_proto_version(ctx, max) == 1;
}

/** Fills `out` with cryptographically strong random bytes; returns 1 on success. */
static inline int tolt_random_bytes(unsigned char *out, int length) { return RAND_bytes(out, length); }
#endif
