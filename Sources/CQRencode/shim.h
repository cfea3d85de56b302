#ifndef TOLT_CQRENCODE_SHIM_H
#define TOLT_CQRENCODE_SHIM_H
#include <qrencode.h>

/* The one way the server encodes: a link's URL as text, any version that fits, error correction M, 8-bit mode for
   what is not alphanumeric, case kept (a link's path is case-sensitive). NULL when the text does not fit a symbol
   or memory ran out; free the result with QRcode_free. */
static inline QRcode *tolt_qrencode_url(const char *url) {
    return QRcode_encodeString(url, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
}
#endif
