/* input.c - opening user input without blocking (see input.h). */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cw_file_kind(unsigned mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISREG(mode))
        return "a regular file";
    return "not a regular file";
}

int cw_open_input(const char *path, const char *what, int allow_pipe, FILE **out,
                  cw_error *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        cw_error_set(err, path, 0, 0, "cannot open the %s: %s", what, strerror(errno));
        return CW_EXIT_USAGE;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        cw_error_set(err, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
        return CW_EXIT_USAGE;
    }
    if (!S_ISREG(st.st_mode) && !(allow_pipe && S_ISFIFO(st.st_mode))) {
        cw_error_set(err, path, 0, 0, "the %s is %s, not a regular file", what,
                     cw_file_kind(st.st_mode));
        close(fd);
        return CW_EXIT_USAGE;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        cw_error_set(err, path, 0, 0, "cannot read the %s: %s", what, strerror(errno));
        close(fd);
        return CW_EXIT_USAGE;
    }
    *out = f;
    return 0;
}
