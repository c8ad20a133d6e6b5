/* vk_cachedir.c - the driver's disk cache and unusable folders (see
 * vk_cachedir.h). */
#include "vk_cachedir.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The folder itself, or the nearest existing parent (the driver creates the
 * rest): the file system it will write to. */
static void existing_parent(const char *dir, char *out, size_t n)
{
    snprintf(out, n, "%s", dir);
    struct stat st;
    while (out[0] && stat(out, &st) != 0) {
        char *slash = strrchr(out, '/');
        if (!slash || slash == out) {
            snprintf(out, n, "/");
            return;
        }
        *slash = 0;
    }
}

int vk_cachedir_usable(const char *dir, char *why, size_t n)
{
    char base[1024];
    existing_parent(dir, base, sizeof base);
    struct statvfs vs;
    if (statvfs(base, &vs) == 0) {
        unsigned long long avail = (unsigned long long)vs.f_bavail * vs.f_frsize;
        if (vs.f_flag & ST_RDONLY) {
            snprintf(why, n, "%s is on a read-only file system", base);
            return 0;
        }
        if (avail < VK_CACHEDIR_MIN_FREE) {
            snprintf(why, n, "only %llu KiB free on its file system (%s)", avail >> 10,
                     base);
            return 0;
        }
    }
    /* a file can be created and written (root ignores modes: try it) */
    char probe[1100];
    snprintf(probe, sizeof probe, "%s/.clockwork-probe-%d", base, (int)getpid());
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, n, "cannot create a file in %s: %s", base, strerror(errno));
        return 0;
    }
    char buf[4096];
    memset(buf, 0, sizeof buf);
    int ok = write(fd, buf, sizeof buf) == (ssize_t)sizeof buf;
    int e = errno;
    close(fd);
    unlink(probe);
    if (!ok) {
        snprintf(why, n, "cannot write in %s: %s", base, strerror(e));
        return 0;
    }
    return 1;
}

static int guard_result = -1;
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;

int vk_cachedir_guard(FILE *log)
{
    pthread_mutex_lock(&guard_lock);
    if (guard_result >= 0) {
        pthread_mutex_unlock(&guard_lock);
        return guard_result;
    }
    guard_result = 0;
    const char *off = getenv("MESA_SHADER_CACHE_DISABLE");
    if (!off || !*off || !strcmp(off, "false") || !strcmp(off, "0")) {
        char dir[1024];
        const char *m = getenv("MESA_SHADER_CACHE_DIR");
        const char *x = getenv("XDG_CACHE_HOME");
        const char *h = getenv("HOME");
        if (m && *m)
            snprintf(dir, sizeof dir, "%s", m);
        else if (x && *x)
            snprintf(dir, sizeof dir, "%s/mesa_shader_cache", x);
        else if (h && *h)
            snprintf(dir, sizeof dir, "%s/.cache/mesa_shader_cache", h);
        else
            dir[0] = 0;
        char why[1300];
        if (dir[0] && !vk_cachedir_usable(dir, why, sizeof why)) {
            setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
            setenv("__GL_SHADER_DISK_CACHE", "0", 1);
            guard_result = 1;
            if (log)
                fprintf(log, "clockwork: warning: the driver's shader cache folder %s is "
                        "not usable (%s): its disk cache is turned off for this run "
                        "(MESA_SHADER_CACHE_DISABLE=true); set MESA_SHADER_CACHE_DIR to a "
                        "folder with space to keep it\n", dir, why);
        }
    }
    int r = guard_result;
    pthread_mutex_unlock(&guard_lock);
    return r;
}
