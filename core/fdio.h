/* fdio.h - whole-buffer reads and writes on pipes and sockets, and the
 * monotonic clock their deadlines are measured on.
 *
 * Contract: each call moves all n bytes or reports why not; EINTR is
 * retried, never returned.  They are for the parent/child channels of the
 * supervised run, the Vulkan device probe and the isolated CPU kernel. */
#ifndef CW_FDIO_H
#define CW_FDIO_H

#include <stddef.h>

/* Seconds on CLOCK_MONOTONIC. */
double cw_monotonic_s(void);

/* write() until all n bytes are out: 0, or -1 on error or a closed end. */
int cw_write_all(int fd, const void *p, size_t n);

/* The same with send(..., MSG_NOSIGNAL) on a socket: a closed peer gives
 * -1, never SIGPIPE. */
int cw_send_all(int fd, const void *p, size_t n);

/* read() until all n bytes are in: 0, or -1 on error or end of stream. */
int cw_read_all(int fd, void *p, size_t n);

/* The same, giving up at deadline (cw_monotonic_s() seconds): 0 read
 * all, -1 end of stream or error, -2 deadline passed. */
int cw_read_all_by(int fd, void *p, size_t n, double deadline);

#endif
