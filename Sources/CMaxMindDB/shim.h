#ifndef TOLT_CMAXMINDDB_SHIM_H
#define TOLT_CMAXMINDDB_SHIM_H
#include <maxminddb.h>

/* MMDB_get_value is variadic (a NULL-terminated path) and does not import into Swift: the one path we read. */
static inline int tolt_mmdb_country_iso_code(MMDB_entry_s *entry, MMDB_entry_data_s *data) {
    return MMDB_get_value(entry, data, "country", "iso_code", NULL);
}
#endif
