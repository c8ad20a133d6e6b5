/* vk_probe.c - vk_list_devices() in a child process (see vk_probe.h).
 * The child writes: the status, the cw_error, the count, then each
 * vk_device_info followed by its queue families (plain data). */
#include "vk_probe.h"
#include "fdio.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 256
#define MAX_FAMILIES 256

static __attribute__((noreturn)) void child(int fd)
{
    signal(SIGPIPE, SIG_DFL);
    vk_device_info *d = NULL;
    size_t n = 0;
    cw_error e;
    cw_error_clear(&e);
    int32_t rc = vk_list_devices(&d, &n, &e);
    uint64_t cnt = rc == 0 ? n : 0;
    if (cnt > MAX_DEVICES)
        cnt = MAX_DEVICES;
    if (cw_write_all(fd, &rc, sizeof rc) || cw_write_all(fd, &e, sizeof e) ||
        cw_write_all(fd, &cnt, sizeof cnt))
        _exit(1);
    for (size_t i = 0; i < cnt; i++) {
        vk_device_info info = d[i];
        uint64_t nf = info.nfamilies > MAX_FAMILIES ? MAX_FAMILIES : info.nfamilies;
        info.families = NULL;
        if (cw_write_all(fd, &info, sizeof info) || cw_write_all(fd, &nf, sizeof nf) ||
            (nf && cw_write_all(fd, d[i].families, nf * sizeof *d[i].families)))
            _exit(1);
    }
    /* the driver's exit handlers are of no use here */
    _exit(0);
}

static int finish(pid_t pid, int fd, int killit)
{
    close(fd);
    if (killit)
        kill(pid, SIGKILL);
    int st = 0;
    double end = cw_monotonic_s() + 2;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (cw_monotonic_s() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    return st;
}

int vk_probe_devices(double timeout_s, vk_device_info **out, size_t *n, cw_error *err)
{
    *out = NULL;
    *n = 0;
    int p[2];
    if (pipe(p) != 0) {
        cw_error_set(err, NULL, 0, 0, "cannot list the Vulkan devices: pipe: %s",
                     strerror(errno));
        return CW_STATUS_ENV;
    }
    pid_t pid = cw_fork_tied(p);
    if (pid < 0) {
        cw_error_set(err, NULL, 0, 0, "cannot list the Vulkan devices: fork: %s",
                     strerror(errno));
        return CW_STATUS_ENV;
    }
    if (pid == 0)
        child(p[1]);
    double deadline = cw_monotonic_s() + timeout_s;
    int32_t rc;
    uint64_t cnt;
    cw_error e;
    int r = cw_read_all_by(p[0], &rc, sizeof rc, deadline);
    if (!r)
        r = cw_read_all_by(p[0], &e, sizeof e, deadline);
    if (!r)
        r = cw_read_all_by(p[0], &cnt, sizeof cnt, deadline);
    if (!r && cnt > MAX_DEVICES)
        r = -1;
    vk_device_info *d = NULL;
    size_t got = 0;
    if (!r && cnt) {
        d = calloc((size_t)cnt, sizeof *d);
        if (!d)
            r = -1;
    }
    for (; !r && got < cnt; got++) {
        uint64_t nf;
        r = cw_read_all_by(p[0], &d[got], sizeof d[got], deadline);
        d[got].families = NULL;
        d[got].nfamilies = 0;
        if (!r)
            r = cw_read_all_by(p[0], &nf, sizeof nf, deadline);
        if (!r && nf > MAX_FAMILIES)
            r = -1;
        if (!r && nf) {
            d[got].families = calloc((size_t)nf, sizeof *d[got].families);
            r = d[got].families ? cw_read_all_by(p[0], d[got].families,
                                           (size_t)nf * sizeof *d[got].families, deadline)
                                : -1;
            d[got].nfamilies = (size_t)nf;
        }
    }
    int st = finish(pid, p[0], r == -2);
    if (r) {
        vk_free_devices(d, got);
        if (r == -2)
            cw_error_set(err, NULL, 0, 0, "listing the Vulkan devices did not finish "
                         "within %.3g s (the driver hangs); its process was killed", timeout_s);
        else if (WIFSIGNALED(st))
            cw_error_set(err, NULL, 0, 0, "the Vulkan driver crashed while listing the "
                         "devices (SIG%s)", sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?");
        else
            cw_error_set(err, NULL, 0, 0, "listing the Vulkan devices failed (its process "
                         "ended with status %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return CW_STATUS_ENV;
    }
    e.file[sizeof e.file - 1] = 0;
    e.text[sizeof e.text - 1] = 0;
    if (rc) {
        vk_free_devices(d, got);
        *err = e;
        return rc == CW_STATUS_INPUT ? CW_STATUS_INPUT : CW_STATUS_ENV;
    }
    *out = d;
    *n = (size_t)cnt;
    return 0;
}
