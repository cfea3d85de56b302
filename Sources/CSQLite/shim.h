#ifndef TOLT_CSQLITE_SHIM_H
#define TOLT_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro over a cast pointer and does not import into Swift. */
static inline sqlite3_destructor_type tolt_sqlite_transient(void) { return SQLITE_TRANSIENT; }

static inline int tolt_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
#endif
