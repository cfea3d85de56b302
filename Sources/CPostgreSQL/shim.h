#ifndef TOLT_CPOSTGRESQL_SHIM_H
#define TOLT_CPOSTGRESQL_SHIM_H
/* Debian's libpq-dev installs its headers under /usr/include/postgresql. */
#include <postgresql/libpq-fe.h>

/* PG_DIAG_SQLSTATE is a character-literal macro, which does not import into Swift. */
static inline const char *tolt_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}
#endif
