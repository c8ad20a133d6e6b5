/* fdio.c - whole-buffer reads and writes (see fdio.h). */
#include "fdio.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

double cw_monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* How move_all() moves the bytes. */
enum { MOVE_WRITE, MOVE_SEND, MOVE_READ, MOVE_READ_BY };

/* The one loop: all n bytes, EINTR retried; MOVE_READ_BY waits with poll()
 * and gives up (-2) at deadline.  0, or -1 on an error or a closed end. */
static int move_all(int fd, char *c, size_t n, int how, double deadline)
{
    while (n) {
        if (how == MOVE_READ_BY) {
            double left = deadline - cw_monotonic_s();
            if (left <= 0)
                return -2;
            struct pollfd pf = {.fd = fd, .events = POLLIN};
            if (poll(&pf, 1, (int)(left * 1e3) + 1) <= 0)
                continue; /* interrupted or timed out: the deadline decides */
        }
        ssize_t got = how == MOVE_WRITE  ? write(fd, c, n)
                      : how == MOVE_SEND ? send(fd, c, n, MSG_NOSIGNAL)
                                         : read(fd, c, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        c += got;
        n -= (size_t)got;
    }
    return 0;
}

int cw_write_all(int fd, const void *p, size_t n)
{
    return move_all(fd, (char *)p, n, MOVE_WRITE, 0);
}

int cw_send_all(int fd, const void *p, size_t n)
{
    return move_all(fd, (char *)p, n, MOVE_SEND, 0);
}

int cw_read_all(int fd, void *p, size_t n)
{
    return move_all(fd, p, n, MOVE_READ, 0);
}

int cw_read_all_by(int fd, void *p, size_t n, double deadline)
{
    return move_all(fd, p, n, MOVE_READ_BY, deadline);
}

pid_t cw_fork_tied(int ch[2])
{
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(ch[0]);
        close(ch[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        close(ch[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        return 0;
    }
    close(ch[1]);
    return pid;
}
