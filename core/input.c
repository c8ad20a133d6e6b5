/* input.c - opening user input without blocking (see input.h). */
#include "input.h"

#include "alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cw_file_kind(unsigned mode)
{
    static const struct {
        unsigned type;
        const char *name;
    } kinds[] = {
        {S_IFDIR, "a directory"},     {S_IFIFO, "a FIFO (named pipe)"},
        {S_IFCHR, "a character device"}, {S_IFBLK, "a block device"},
        {S_IFSOCK, "a socket"},       {S_IFREG, "a regular file"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if ((mode & S_IFMT) == kinds[i].type)
            return kinds[i].name;
    return "not a regular file";
}

int cw_open_input(const char *path, const char *what, int allow_pipe, FILE **out,
                  cw_error *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        cw_error_set(err, path, 0, 0, "cannot open the %s: %s", what, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        cw_error_set(err, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) && !(allow_pipe && S_ISFIFO(st.st_mode))) {
        cw_error_set(err, path, 0, 0, "the %s is %s, not a regular file", what,
                     cw_file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        cw_error_set(err, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
        return -1;
    }
    *out = f;
    return 0;
}

/* Size limits in messages: "256 MiB", "1 MiB", "64 KiB", "100 bytes". */
static void limit_text(char *buf, size_t n, size_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, n, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, n, "%zu KiB", bytes >> 10);
    else
        snprintf(buf, n, "%zu bytes", bytes);
}

int cw_read_input(const char *path, const char *what, int allow_pipe, size_t max_bytes,
                  int allow_empty, char **buf, size_t *len, cw_error *err)
{
    *buf = NULL;
    *len = 0;
    FILE *f;
    if (cw_open_input(path, what, allow_pipe, &f, err))
        return -1;
    char lim[32];
    limit_text(lim, sizeof lim, max_bytes);
    struct stat st;
    size_t cap = 1 << 16;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > max_bytes) {
            fclose(f);
            cw_error_set(err, path, 0, 0, "the %s is too large (%lld bytes; at most %s)",
                         what, (long long)st.st_size, lim);
            return -1;
        }
        cap = (size_t)st.st_size + 1; /* +1: see the end of file in one read */
    }
    char *data = xmalloc(cap + 1);
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes)
                break;
            cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            data = xrealloc(data, cap + 1);
        }
        size_t r = fread(data + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
    }
    int rd_err = ferror(f);
    fclose(f);
    if (rd_err) {
        free(data);
        cw_error_set(err, path, 0, 0, "cannot read the %s: I/O error", what);
        return -1;
    }
    if (n > max_bytes) {
        free(data);
        cw_error_set(err, path, 0, 0, "the %s is too large (more than %s)", what, lim);
        return -1;
    }
    if (n == 0 && !allow_empty) {
        free(data);
        cw_error_set(err, path, 0, 0, "the %s is empty%s", what,
                     allow_pipe ? " (a FIFO or pipe with nothing written to it reads as empty)"
                                : "");
        return -1;
    }
    data[n] = 0;
    *buf = data;
    *len = n;
    return 0;
}

size_t cw_utf8_bom_length(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

int cw_parse_input(const char *path, const char *what, int allow_pipe, size_t max_bytes,
                   int allow_empty, cw_text_parser parse, void *out, cw_error *err)
{
    char *buf;
    size_t len;
    if (cw_read_input(path, what, allow_pipe, max_bytes, allow_empty, &buf, &len, err))
        return -1;
    size_t bom = cw_utf8_bom_length(buf, len);
    int rc = parse(path, buf + bom, len - bom, out, err);
    free(buf);
    return rc;
}
