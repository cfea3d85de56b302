/* A strict chunked decoder in place of the one h2o 2.2 carries (picohttpparser's `phr_decode_chunked`).

   h2o 2.2 reads a chunked request body with picohttpparser, which is lenient where a proxy in front of the server may
   not be (RFC 9112 §7.1):
   - a chunk size may have 16 hex digits, so `ffffffffffffffff` announces a chunk of 2^64 - 1 bytes, and h2o, whose body
     limit counts only the bytes that arrived, waits for them until its request timeout (10 s);
   - anything after the size's digits is skipped up to the line feed as an extension, so `0x5` is a last chunk and
     `5zz` a chunk of 5;
   - a line may end with a bare LF, or with several CRs before the LF.
   Each of those is a framing a proxy may read differently (request smuggling), or a connection held for nothing.

   libh2o-evloop.so calls `phr_decode_chunked` through its procedure linkage table, so the dynamic linker binds that
   call to the first definition in the process: this one, in the executable (ELF symbol interposition; the linker
   exports an executable's symbol that a linked shared library also defines). `tolt_h2o_chunked_decoder_is_ours`
   tells whether that happened; the server logs it when it did not. The decoder keeps picohttpparser's contract:
   it decodes in place, sets `*bufsz` to the decoded length, and returns -2 (more input needed), -1 (malformed; h2o
   answers 400 and closes the connection) or the count of bytes after the end of the body, which it leaves right
   after the decoded data. Its state lives in picohttpparser's `struct phr_chunked_decoder`, which h2o allocates,
   zero-fills and never reads, except `_state == 2` for "inside chunk data" (`phr_decode_chunked_is_in_data`, used by
   h2o's HTTP client, which the server does not run).

   What it accepts (RFC 9112 §7.1): a size of 1 to 16 hex digits no larger than the largest request body of any
   configuration (`tolt_h2o_framing_configure`), refused as soon as its digits pass it; optional whitespace, then
   either the end of the line or `;` and an extension of printable ASCII and tabs (at most 254 bytes, ignored); CRLF
   after the size line and after each chunk's data; trailer lines of printable text (4 KiB in all, discarded), none
   starting with whitespace (obs-fold), then CRLF. */
#define _GNU_SOURCE
#include "CH2O.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/types.h>

/* picohttpparser's decoder record, as h2o 2.2 embeds it (Debian's headers do not carry picohttpparser.h). */
struct phr_chunked_decoder {
    size_t bytes_left_in_chunk;
    char consume_trailer;
    char _hex_count;
    char _state;
};

ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz);

_Static_assert(offsetof(struct phr_chunked_decoder, bytes_left_in_chunk) == 0, "the decoder starts with its count");
_Static_assert(sizeof(struct phr_chunked_decoder) == sizeof(size_t) * 2, "picohttpparser's decoder is 2 words");

/* The states, in `_state`. Zero-filled means the start of a chunk size; 2 is picohttpparser's "in chunk data". */
enum {
    IN_SIZE = 0,          /* hex digits; `_hex_count` counts them, `bytes_left_in_chunk` is the size so far */
    IN_EXTENSION = 1,     /* after the digits: `_hex_count` is 0 before any `;`, else 1 + the extension's length */
    IN_DATA = 2,          /* `bytes_left_in_chunk` bytes of data to go */
    AFTER_DATA = 3,       /* the CR after the data */
    AFTER_DATA_CR = 4,    /* the LF after it */
    AFTER_SIZE_CR = 5,    /* the LF that ends the size line */
    TRAILER_START = 6,    /* the start of a trailer line, or the CR of the empty line that ends the body */
    IN_TRAILER = 7,       /* a trailer line; `bytes_left_in_chunk` counts the trailer bytes */
    AFTER_TRAILER_CR = 8, /* the LF that ends a trailer line */
    AFTER_LAST_CR = 9,    /* the LF of the empty line that ends the body */
};

enum { MAX_SIZE_DIGITS = 16, MAX_EXTENSION = 254, MAX_TRAILERS = 4096 };

/* The largest chunk any configuration can accept: its largest body (0 until a configuration says so: then only the
   digits limit a size). Only ever raised, so a server's limit never shrinks under another's loops. */
static _Atomic size_t largest_chunk = 0;

void tolt_h2o_chunked_limit(size_t largest) {
    size_t current = atomic_load(&largest_chunk);
    while (current < largest && !atomic_compare_exchange_weak(&largest_chunk, &current, largest)) {
    }
}

int tolt_h2o_chunked_decoder_is_ours(void) {
    void *bound = dlsym(RTLD_DEFAULT, "phr_decode_chunked");
    return bound == (void *)phr_decode_chunked;
}

static int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Text a chunk extension may hold: printable ASCII and tabs (tokens, `=`, quoted strings, whitespace). */
static int is_extension_byte(unsigned char c) { return c == '\t' || (c >= 0x20 && c < 0x7f); }

/* Text a trailer line may hold: a field line's bytes, with no control character but the tab. */
static int is_trailer_byte(unsigned char c) { return c == '\t' || (c >= 0x20 && c != 0x7f); }

ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz) {
    size_t dst = 0, src = 0, size = *bufsz;
    size_t limit = atomic_load_explicit(&largest_chunk, memory_order_relaxed);
    if (limit == 0) limit = SIZE_MAX;
    unsigned char state = (unsigned char)decoder->_state, count = (unsigned char)decoder->_hex_count;
    size_t left = decoder->bytes_left_in_chunk;
    ssize_t result = -2;

    while (src != size) {
        unsigned char c = (unsigned char)buf[src];
        switch (state) {
        case IN_SIZE: {
            int digit = hex_value(c);
            if (digit < 0) {
                if (count == 0) goto Malformed;
                state = IN_EXTENSION;
                count = 0;
                continue; /* the same byte, read as what follows the size */
            }
            /* At once, not when the data fails to come: a size with too many digits, or above the limit. */
            if (count == MAX_SIZE_DIGITS || (size_t)digit > limit || left > (limit - (size_t)digit) / 16)
                goto Malformed;
            left = left * 16 + (size_t)digit;
            ++count;
            ++src;
            break;
        }
        case IN_EXTENSION:
            if (c == '\r') {
                state = AFTER_SIZE_CR;
            } else if (count == 0) {
                if (c == ';')
                    count = 1;
                else if (c != ' ' && c != '\t')
                    goto Malformed;
            } else {
                if (!is_extension_byte(c) || count == MAX_EXTENSION + 1) goto Malformed;
                ++count;
            }
            ++src;
            break;
        case AFTER_SIZE_CR:
            if (c != '\n') goto Malformed;
            ++src;
            if (left != 0) {
                state = IN_DATA;
            } else if (decoder->consume_trailer) {
                state = TRAILER_START; /* `left`, 0, counts trailer bytes from here */
            } else {
                goto Complete;
            }
            break;
        case IN_DATA: {
            size_t take = size - src < left ? size - src : left;
            if (dst != src) memmove(buf + dst, buf + src, take);
            dst += take;
            src += take;
            left -= take;
            if (left == 0) state = AFTER_DATA;
            break;
        }
        case AFTER_DATA:
            if (c != '\r') goto Malformed;
            state = AFTER_DATA_CR;
            ++src;
            break;
        case AFTER_DATA_CR:
            if (c != '\n') goto Malformed;
            state = IN_SIZE;
            count = 0;
            left = 0;
            ++src;
            break;
        case TRAILER_START:
            if (c == '\r') {
                state = AFTER_LAST_CR;
                ++src;
                break;
            }
            if (c == ' ' || c == '\t') goto Malformed; /* obs-fold */
            state = IN_TRAILER;
            continue;
        case IN_TRAILER:
            if (c == '\r') {
                state = AFTER_TRAILER_CR;
            } else if (!is_trailer_byte(c) || ++left > MAX_TRAILERS) {
                goto Malformed;
            }
            ++src;
            break;
        case AFTER_TRAILER_CR:
            if (c != '\n') goto Malformed;
            state = TRAILER_START;
            ++src;
            break;
        case AFTER_LAST_CR:
            if (c != '\n') goto Malformed;
            ++src;
            goto Complete;
        default:
            goto Malformed;
        }
    }
    goto Exit;

Complete:
    result = (ssize_t)(size - src);
    goto Exit;
Malformed:
    result = -1;
Exit:
    if (dst != src) memmove(buf + dst, buf + src, size - src);
    *bufsz = dst;
    decoder->_state = (char)state;
    decoder->_hex_count = (char)count;
    decoder->bytes_left_in_chunk = left;
    /* What the chunk being read has announced and not yet sent (its size so far, while its digits are read): a limited
       body can be refused from the announcement, as one is from its Content-Length. Trailer states count other bytes. */
    size_t announced = state == IN_SIZE || state == IN_EXTENSION || state == AFTER_SIZE_CR || state == IN_DATA ? left : 0;
    tolt_h2o_body_limit_after_chunk(buf, size, dst, announced, result);
    return result;
}
