/* fdio.h - whole-buffer reads and writes on pipes and sockets, and the
 * monotonic clock their deadlines are measured on.
 *
 * Contract: each call moves all n bytes or reports why not; EINTR is
 * retried, never returned.  They are for the parent/child channels of the
 * supervised run, the Vulkan device probe and the isolated CPU kernel. */
#ifndef CW_FDIO_H
#define CW_FDIO_H

#include <stddef.h>
#include <sys/types.h>

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

/* fork() a child tied to this process by the channel ch (a pipe or a
 * socketpair): stdio is flushed first (unwritten output would be written
 * twice).  In the child it returns 0 with ch[0] closed (ch[1] is the
 * child's end); the child is killed when this process dies, and leaves at
 * once (_exit 127) when it already has.  In the parent it returns the
 * child's pid with ch[1] closed (ch[0] is the parent's end).  -1 when the
 * fork fails: both ends closed, errno kept. */
pid_t cw_fork_tied(int ch[2]);

#endif
