/* The C libraries' own standard error at a bounded rate (see tolt_capture_library_stderr in CH2O.h). */
#define _GNU_SOURCE
#include "CH2O.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int lines_per_second;
static size_t longest_line;
static _Atomic int64_t window_second = -1;
static atomic_int passed_in_window;
static atomic_long dropped_in_window;

/* Writes every byte of `parts` to descriptor 2, as the server's own lines are written: a failure drops the rest. */
static void write_all(struct iovec *parts, int count) {
    while (count > 0) {
        ssize_t written = writev(2, parts, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        while (count > 0 && (size_t)written >= parts->iov_len) {
            written -= (ssize_t)parts->iov_len;
            ++parts;
            --count;
        }
        if (count > 0) {
            parts->iov_base = (char *)parts->iov_base + written;
            parts->iov_len -= (size_t)written;
        }
    }
}

/* Starts a new second's budget once the clock has moved past the window's, saying what the last window dropped. */
static void roll_window(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t window = atomic_load(&window_second);
    if (window == (int64_t)now.tv_sec || !atomic_compare_exchange_strong(&window_second, &window, (int64_t)now.tv_sec))
        return;
    long dropped = atomic_exchange(&dropped_in_window, 0);
    atomic_store(&passed_in_window, 0);
    if (dropped > 0) {
        char line[200];
        int length = snprintf(line, sizeof line,
                              "tolt-edge: library output: dropped %ld line%s in the last second (at most %d a second "
                              "are kept)\n",
                              dropped, dropped == 1 ? "" : "s", lines_per_second);
        struct iovec part = {line, (size_t)length};
        write_all(&part, 1);
    }
}

void tolt_report_dropped_library_lines(void) {
    if (atomic_load(&dropped_in_window) > 0) roll_window();
}

/* The stream's write: one call per line (the stream is line-buffered), passed on within the second's budget. */
static ssize_t pass_on(void *cookie, const char *buffer, size_t size) {
    (void)cookie;
    roll_window();
    if (atomic_fetch_add(&passed_in_window, 1) >= lines_per_second) {
        atomic_fetch_add(&dropped_in_window, 1);
        return (ssize_t)size;
    }
    size_t kept = size;
    while (kept > 0 && (buffer[kept - 1] == '\n' || buffer[kept - 1] == '\r')) --kept;
    if (kept > longest_line) kept = longest_line;
    struct iovec parts[3] = {{"tolt-edge: library: ", 20}, {(void *)buffer, kept}, {"\n", 1}};
    write_all(parts, 3);
    return (ssize_t)size;
}

int tolt_capture_library_stderr(int per_second, size_t maximum_line) {
    lines_per_second = per_second;
    longest_line = maximum_line;
    cookie_io_functions_t functions = {.read = NULL, .write = pass_on, .seek = NULL, .close = NULL};
    FILE *stream = fopencookie(NULL, "w", functions);
    if (stream == NULL) return -1;
    setvbuf(stream, NULL, _IOLBF, 0);
    stderr = stream;
    return 0;
}
