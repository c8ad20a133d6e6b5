/* output.c - the one atomic file writer (see output.h). */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cw_write_file_atomic(const char *path, const char *data, size_t len,
                         cw_error *err)
{
    return cw_write_file_atomic_as(path, data, len, "the report", err);
}

int cw_write_file_atomic_as(const char *path, const char *data, size_t len,
                            const char *what, cw_error *err)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            cw_error_set(err, "<stdout>", 0, 0, "cannot write %s: %s", what,
                         strerror(errno));
            return -1;
        }
        return 0;
    }
    /* A device or pipe (/dev/full, /dev/stdout, a FIFO) is written in
     * place: renaming over it would replace the device node. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            cw_error_set(err, path, 0, 0, "is a folder; give a file name for %s", what);
            return -1;
        }
        /* a FIFO nobody reads would block the open forever: non-blocking
         * open fails with ENXIO then; writes block again once it is open */
        int dfd = open(path, O_WRONLY | O_CLOEXEC | (S_ISFIFO(st.st_mode) ? O_NONBLOCK : 0));
        int bad = dfd < 0 ? errno : 0;
        if (dfd < 0 && bad == ENXIO) {
            cw_error_set(err, path, 0, 0, "cannot write %s: no process reads "
                         "this FIFO (named pipe)", what);
            return -1;
        }
        if (dfd >= 0 && S_ISFIFO(st.st_mode))
            fcntl(dfd, F_SETFL, fcntl(dfd, F_GETFL) & ~O_NONBLOCK);
        for (size_t off = 0; !bad && off < len;) {
            ssize_t w = write(dfd, data + off, len - off);
            if (w < 0 && errno != EINTR)
                bad = errno;
            else if (w > 0)
                off += (size_t)w;
        }
        if (dfd >= 0 && close(dfd) != 0 && !bad)
            bad = errno;
        if (bad) {
            cw_error_set(err, path, 0, 0, "cannot write %s: %s", what, strerror(bad));
            return -1;
        }
        return 0;
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        cw_error_set_env(err, path, "out of memory writing %s", what);
        return -1;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cw_error_set(err, path, 0, 0,
                     "cannot create a temporary file next to it: %s "
                     "(is the folder writable?)", strerror(errno));
        free(tmp);
        return -1;
    }
    size_t off = 0;
    int saved = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            saved = errno;
            break;
        }
        off += (size_t)w;
    }
    if (!saved && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        saved = errno;
    if (!saved)
        (void)fchmod(fd, 0644); /* mkstemp makes 0600; reports are shared */
    if (close(fd) != 0 && !saved)
        saved = errno;
    if (!saved) {
        if (rename(tmp, path) != 0)
            saved = errno;
    }
    if (saved) {
        unlink(tmp);
        cw_error_set(err, path, 0, 0,
                     "cannot write %s: %s; the previous file, if any, "
                     "is unchanged", what, strerror(saved));
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

