/* stdout_mute.c - see stdout_mute.h. */
#include "stdout_mute.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int cw_stdout_mute(void)
{
    if (isatty(STDOUT_FILENO))
        return -1;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        if (null >= 0)
            close(null);
        return -1;
    }
    close(null);
    return saved;
}

void cw_stdout_unmute(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout); /* what the library printed goes to /dev/null, not later */
    dup2(saved, STDOUT_FILENO);
    close(saved);
}
