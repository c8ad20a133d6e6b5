/* supervise.c - the supervised run (see supervise.h).
 *
 * Messages from the child, over a pipe: 'S' g (kernel g starts), 'H' (a
 * sample was taken: still alive), 'K' g len text (kernel g's one-kernel
 * report), 'X' code (the report is written).
 * The parent keeps them in memory; a new child inherits them by fork. */
#include "supervise.h"
#include "exitcode.h"
#include "alloc.h"
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

typedef struct done_kernel {
    char *json;      /* one-kernel report, NULL when not finished */
    char *crash;     /* the kernel crashed a child: why */
} done_kernel;

static int active;           /* this process is a supervised child */
static int out_fd = -1;      /* the child's end of the pipe */
static done_kernel *known;   /* by kernel number g */
static size_t nknown;
static char *open_crash;
static volatile sig_atomic_t child_pid;

static void grow(size_t g)
{
    if (g < nknown)
        return;
    size_t n = g + 64;
    done_kernel *k = xrealloc(known, n * sizeof *k);
    memset(k + nknown, 0, (n - nknown) * sizeof *k);
    known = k;
    nknown = n;
}

/* The parent dies of what was sent to it, and so does the child. */
static void forward(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static int is_forwarded(int sig)
{
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
        if (forwarded[i] == sig)
            return 1;
    return sig == SIGPIPE;
}

char *supervise_crash_sentence(int sig, const char *during)
{
    char buf[400];
    const char *ab = sigabbrev_np(sig);
    snprintf(buf, sizeof buf, "the Vulkan driver crashed (killed by SIG%s: %s%s) %s",
             ab ? ab : "?", strsignal(sig),
             sig == SIGABRT || sig == SIGKILL ? ", or memory ran out" : "", during);
    char *s = cw_strdup(buf);
    return s;
}

/* One child, from fork to its end.  Returns 1 when the run is over (*code
 * set), 0 to start another child. */
static double silence_limit_s = 60;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits for the next message's first byte.  0 got it, -1 end or error,
 * -2 silence past the limit while a kernel runs (a hang in the driver). */
static int next_tag(int fd, char *tag, int watching)
{
    double end = mono_s() + silence_limit_s;
    for (;;) {
        double left = end - mono_s();
        if (watching && left <= 0)
            return -2;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, 1, watching ? (int)(left * 1e3) + 1 : -1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        return cw_read_all(fd, tag, 1) ? -1 : 0;
    }
}

static int watch_child(int fd, pid_t pid, int *code)
{
    long started = -1;
    int written = 0, wcode = 0, silent = 0, heard = 0;
    for (;;) {
        char tag;
        /* watched: opening the device, and each kernel, except one that
         * already hung or crashed (its static stage alone may be slow) */
        int again = started >= 0 && (size_t)started < nknown && known[started].crash;
        int watching = started >= 0 ? !again : !heard && !open_crash;
        int t = next_tag(fd, &tag, watching);
        heard = 1;
        if (t == -2) {
            silent = 1;
            kill(pid, SIGKILL);
            break;
        }
        if (t)
            break;
        if (tag == 'H')
            continue;
        uint64_t g = 0, len = 0;
        if (tag == 'S' && !cw_read_all(fd, &g, sizeof g)) {
            started = (long)g;
        } else if (tag == 'K' && !cw_read_all(fd, &g, sizeof g) && !cw_read_all(fd, &len, sizeof len) &&
                   len < ((uint64_t)1 << 31)) {
            char *text = malloc((size_t)len + 1);
            if (!text || cw_read_all(fd, text, (size_t)len)) {
                free(text);
                break;
            }
            text[len] = 0;
            grow((size_t)g);
            free(known[g].json);
            known[g].json = text;
            started = -1;
        } else if (tag == 'X' && !cw_read_all(fd, &g, sizeof g)) {
            written = 1;
            wcode = (int)g;
        } else {
            break;
        }
    }
    close(fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    child_pid = 0;
    if (WIFEXITED(st)) {
        *code = WEXITSTATUS(st);
        return 1;
    }
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
    if (written) { /* the report is out: a crash in teardown loses nothing */
        fprintf(stderr, "clockwork: warning: the Vulkan driver crashed (SIG%s) while "
                "closing the device, after the report was written\n",
                sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
        *code = wcode;
        return 1;
    }
    if (silent && started < 0) {
        char buf[300];
        snprintf(buf, sizeof buf, "no progress for %.0f s while opening the device (a hang "
                 "in the Vulkan driver): nothing is measured, the static analysis is still "
                 "reported", silence_limit_s);
        open_crash = cw_strdup(buf);
        return 0;
    }
    if (silent && started >= 0) {
        grow((size_t)started);
        if (known[started].crash) {
            *code = CW_EXIT_ENV;
            return 1;
        }
        char buf[400];
        snprintf(buf, sizeof buf, "no progress for %.0f s while running this kernel (a hang "
                 "in the Vulkan driver: compiling its pipeline, or outside the hang guard's "
                 "wait); its process was killed and the run went on with the next kernel",
                 silence_limit_s);
        known[started].crash = cw_strdup(buf);
        return 0;
    }
    if (is_forwarded(sig)) {
        signal(sig, SIG_DFL);
        raise(sig);
        *code = 128 + sig;
        return 1;
    }
    if (started >= 0) {
        grow((size_t)started);
        if (known[started].crash) { /* it crashed even without the device */
            *code = 128 + sig;
            return 1;
        }
        /* the next child says it */
        known[started].crash = supervise_crash_sentence(sig, "while running this kernel; the "
                                               "kernels before and after it were measured "
                                               "in a fresh process");
        return 0;
    }
    if (open_crash) { /* even without a device: give up */
        *code = 128 + sig;
        return 1;
    }
    open_crash = supervise_crash_sentence(sig, "while opening the device: nothing is measured, the "
                                 "static analysis is still reported");
    return 0;
}

int supervise_begin(int *code, double timeout_s)
{
    const char *off = getenv("CW_NO_SUPERVISE");
    if (off && *off && strcmp(off, "0") != 0)
        return 0;
    /* silence allowed while a kernel runs: generous, since its static stage
     * and a pipeline compile send nothing (CW_SUPERVISE_SILENCE_S for tests) */
    silence_limit_s = timeout_s * 6 > 60 ? timeout_s * 6 : 60;
    const char *lim = getenv("CW_SUPERVISE_SILENCE_S");
    if (lim && atof(lim) > 0)
        silence_limit_s = atof(lim);
    for (int attempt = 0; attempt < 100000; attempt++) {
        int p[2];
        if (pipe(p) != 0)
            return 0; /* unsupervised is better than nothing */
        pid_t pid = cw_fork_tied(p);
        if (pid < 0)
            return 0;
        if (pid == 0) {
            for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
                signal(forwarded[i], SIG_DFL);
            /* an abort (out of memory) is a crash of this kernel too: the
             * parent resumes after it */
            signal(SIGABRT, SIG_DFL);
            active = 1;
            out_fd = p[1];
            return 0;
        }
        child_pid = pid;
        for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
            signal(forwarded[i], forward);
        if (watch_child(p[0], pid, code))
            return 1;
    }
    *code = CW_EXIT_ENV;
    return 1;
}

const char *supervise_open_crash(void)
{
    return active ? open_crash : NULL;
}

int supervise_known(size_t g, kernel_report *kr, const char **crash)
{
    *crash = NULL;
    if (!active || g >= nknown)
        return 0;
    if (known[g].crash) {
        *crash = known[g].crash;
        return 0;
    }
    if (!known[g].json)
        return 0;
    /* unreadable: run it again rather than lose it */
    return supervise_kernel_from_json(known[g].json, kr) == 0;
}

int supervise_kernel_from_json(const char *json, kernel_report *kr)
{
    report tmp;
    cw_error err;
    if (report_read_text("(earlier process)", json, strlen(json), &tmp, &err) != 0 ||
        tmp.nkernels != 1) {
        report_free(&tmp);
        return -1;
    }
    kernel_report_free(kr);
    *kr = tmp.kernels[0];
    tmp.nkernels = 0;
    report_free(&tmp);
    return 0;
}

char *supervise_kernel_json(const kernel_report *kr)
{
    report tmp;
    report_init(&tmp);
    tmp.kernels = (kernel_report *)kr;
    tmp.nkernels = 1;
    char *text = report_to_json_text(&tmp);
    tmp.kernels = NULL;
    tmp.nkernels = 0;
    report_free(&tmp);
    return text;
}

void supervise_kernel_start(size_t g)
{
    if (!active)
        return;
    uint64_t v = g;
    char tag = 'S';
    if (cw_write_all(out_fd, &tag, 1) || cw_write_all(out_fd, &v, sizeof v))
        active = 0;
}

void supervise_kernel_done(size_t g, const kernel_report *kr)
{
    if (!active)
        return;
    char *text = supervise_kernel_json(kr);
    if (!text)
        return;
    uint64_t v = g, len = strlen(text);
    char tag = 'K';
    if (cw_write_all(out_fd, &tag, 1) || cw_write_all(out_fd, &v, sizeof v) ||
        cw_write_all(out_fd, &len, sizeof len) || cw_write_all(out_fd, text, (size_t)len))
        active = 0;
    free(text);
}

static void (*chained_sample)(void *, double);

void supervise_chain_sample(void (*fn)(void *user, double sample_us))
{
    chained_sample = fn;
}

void supervise_sample(void *user, double sample_us)
{
    if (chained_sample)
        chained_sample(user, sample_us);
    if (!active)
        return;
    static double last;
    double now = mono_s();
    if (now - last < 0.2)
        return;
    last = now;
    char tag = 'H';
    if (cw_write_all(out_fd, &tag, 1))
        active = 0;
}

void supervise_report_written(int code)
{
    if (!active)
        return;
    uint64_t v = (uint64_t)code;
    char tag = 'X';
    (void)(cw_write_all(out_fd, &tag, 1) || cw_write_all(out_fd, &v, sizeof v));
}
