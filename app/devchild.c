/* devchild.c - one GPU kernel measured in a child process (see devchild.h).
 *
 * Messages from the child, over a pipe: 'S' (the device is open, the
 * kernel starts), 'A' (the child analyses the kernel again), 'H' double
 * (a sample), 'N' len text (no device: why), 'K' len json (the one-kernel
 * report; the child is done).  The parent
 * asks the child to stop sampling through a shared page (the cancel flag
 * the run options poll). */
#include "devchild.h"
#include "alloc.h"
#include "fdio.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int devchild_enabled(void)
{
    const char *off = getenv("CW_NO_SUPERVISE");
    return !(off && *off && strcmp(off, "0") != 0);
}

void devchild_unmeasured(kernel_report *kr, const char *why)
{
    cw_set_str(&kr->measurement.error, why);
    divergence *d = &kr->divergence;
    free(d->explanation);
    memset(d, 0, sizeof *d);
    d->valid = 1;
    d->status = DIV_UNKNOWN;
    d->explanation = cw_strdup("not measured: the Vulkan driver could not measure it");
}

/* ---- the child ---- */

typedef struct child_ctx {
    int fd;
} child_ctx;

static void send_text(int fd, char tag, const char *text)
{
    uint64_t len = strlen(text);
    (void)(cw_write_all(fd, &tag, 1) || cw_write_all(fd, &len, sizeof len) ||
           cw_write_all(fd, text, (size_t)len));
}

static void child_sample(void *user, double us)
{
    child_ctx *c = user;
    char tag = 'H';
    (void)(cw_write_all(c->fd, &tag, 1) || cw_write_all(c->fd, &us, sizeof us));
}

/* The parent's analysis is this device's when it was made with the
 * profile this session chose for the opened device: the same bytes (a
 * profile is plain data, zeroed before it is filled). */
static int parent_analysis_holds(const devchild_job *job, const session *s)
{
    return job->analysed && job->art && job->art->analysed && job->prof &&
           memcmp(job->prof, &s->prof, sizeof s->prof) == 0;
}

static __attribute__((noreturn)) void child_main(const devchild_job *job, int fd, int errfd,
                                                 volatile int *cancel, kernel_report *kr)
{
    /* default signals (the TUI's handlers would restore the terminal from
     * here), none blocked, its own process group, no terminal */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(errfd >= 0 ? errfd : null, 2);
    }
    session s;
    report_device rd = {0};
    cw_error err;
    session_kinds kinds = {1, 0};
    int rc = session_open(&s, job->opt, 1, kinds, &rd, &err);
    if (rc != 0) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        send_text(fd, 'N', msg);
        _exit(0);
    }
    char tag = 'S';
    if (cw_write_all(fd, &tag, 1))
        _exit(0);
    report one;
    report_init(&one);
    kernel_report *mine = report_add_kernel(&one, kr->name);
    kernel_artifacts art;
    if (parent_analysis_holds(job, &s)) {
        /* the parent's, in this process's copy of its memory: the driver's
         * facts go into this copy's counts; never freed here (_exit) */
        kernel_report_free(mine);
        kernel_report_copy(mine, job->analysed);
        art = *job->art;
        session_predict_kernel(&s, job->k, mine, &art);
    } else {
        tag = 'A';
        if (cw_write_all(fd, &tag, 1))
            _exit(0);
        session_check_kernel(&s, job->k, mine, &art);
    }
    child_ctx c = {fd};
    session_live live = {.on_sample = child_sample, .user = &c, .cancel = cancel};
    session_measure_kernel(&s, job->k, &art, &live, mine);
    char *json = supervise_kernel_json(mine);
    if (json)
        send_text(fd, 'K', json);
    close(fd);
    /* the parent has the result: a crash in teardown loses nothing; after
     * a hang the device is left alone */
    if (!session_wedged(&s))
        session_close(&s);
    _exit(0);
}

/* ---- the parent ---- */

/* The child's stderr, kept in a memory file: its warning lines. */
static void pass_warnings(const devchild_job *job, int errfd)
{
    if (errfd < 0 || !job->on_warning)
        return;
    off_t n = lseek(errfd, 0, SEEK_END);
    if (n <= 0 || n > (1 << 20))
        return;
    char *text = malloc((size_t)n + 1);
    if (!text)
        return;
    ssize_t got = pread(errfd, text, (size_t)n, 0);
    text[got > 0 ? got : 0] = 0;
    static const char tag[] = "clockwork: warning: ";
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!strncmp(line, tag, sizeof tag - 1))
            job->on_warning(job->user, line + sizeof tag - 1);
    }
    free(text);
}

/* The next message's tag.  0 got it; -1 end of stream; -2 silent past
 * the deadline; -3 cancelled (and the child given a moment). */
static int next_tag(int fd, char *tag, double deadline, const devchild_job *job,
                    volatile int *shared_cancel)
{
    for (;;) {
        if (job->cancel && *job->cancel && !*shared_cancel) {
            *shared_cancel = 1;  /* the run options poll it: sampling stops */
            double soon = cw_monotonic_s() + 3; /* then a wedged child is killed */
            if (soon < deadline)
                deadline = soon;
        }
        double left = deadline - cw_monotonic_s();
        if (left <= 0)
            return *shared_cancel ? -3 : -2;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int wait_ms = left > 0.1 ? 100 : (int)(left * 1e3) + 1;
        int r = poll(&pf, 1, wait_ms);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r > 0)
            return cw_read_all(fd, tag, 1) ? -1 : 0;
    }
}

static char *read_text(int fd)
{
    uint64_t len = 0;
    if (cw_read_all(fd, &len, sizeof len) || len >= ((uint64_t)1 << 31))
        return NULL;
    char *t = malloc((size_t)len + 1);
    if (!t || cw_read_all(fd, t, (size_t)len)) {
        free(t);
        return NULL;
    }
    t[len] = 0;
    return t;
}

typedef struct watch {
    int started;       /* 'S' seen: the device is open */
    int reanalysed;    /* 'A' seen */
    char *result;      /* 'K' */
    char *no_device;   /* 'N' */
    int silent, cancelled;
} watch;

static void watch_child(int fd, const devchild_job *job, volatile int *shared_cancel, watch *wt)
{
    double deadline = cw_monotonic_s() + job->silence_s;
    for (;;) {
        char tag;
        int t = next_tag(fd, &tag, deadline, job, shared_cancel);
        if (t == -2)
            wt->silent = 1;
        if (t == -3)
            wt->cancelled = 1;
        if (t)
            return;
        deadline = cw_monotonic_s() + job->silence_s;
        double us;
        if (tag == 'S') {
            wt->started = 1;
        } else if (tag == 'A') {
            wt->reanalysed = 1;
        } else if (tag == 'H' && !cw_read_all(fd, &us, sizeof us)) {
            if (job->on_sample)
                job->on_sample(job->user, us);
        } else if (tag == 'K') {
            wt->result = read_text(fd);
            return;
        } else if (tag == 'N') {
            wt->no_device = read_text(fd);
            return;
        } else {
            return;
        }
    }
}

devchild_status devchild_measure(const devchild_job *job, kernel_report *kr, char **why)
{
    *why = NULL;
    volatile int *shared_cancel = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
                                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int ch[2];
    if (shared_cancel == MAP_FAILED || pipe2(ch, O_CLOEXEC) != 0) {
        if (shared_cancel != MAP_FAILED)
            munmap((void *)shared_cancel, sizeof(int));
        *why = cw_strdup("cannot start the device process (out of memory or descriptors)");
        devchild_unmeasured(kr, *why);
        return DEVCHILD_NO_DEVICE;
    }
    *shared_cancel = 0;
    int errfd = memfd_create("clockwork-devchild-stderr", MFD_CLOEXEC);
    pid_t pid = cw_fork_tied(ch);
    if (pid == 0)
        child_main(job, ch[1], errfd, shared_cancel, kr);
    if (pid < 0) {
        if (errfd >= 0)
            close(errfd);
        munmap((void *)shared_cancel, sizeof(int));
        *why = cw_strdup("cannot start the device process (fork failed)");
        devchild_unmeasured(kr, *why);
        return DEVCHILD_NO_DEVICE;
    }
    watch wt = {0};
    watch_child(ch[0], job, shared_cancel, &wt);
    close(ch[0]);
    if (job->reanalysed)
        *job->reanalysed = wt.reanalysed;
    if (!wt.result && !wt.no_device) /* crashed, hung or cancelled: not waited for */
        kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    munmap((void *)shared_cancel, sizeof(int));
    pass_warnings(job, errfd);
    if (errfd >= 0)
        close(errfd);
    if (wt.result && supervise_kernel_from_json(wt.result, kr) == 0) {
        free(wt.result);
        return DEVCHILD_MEASURED;
    }
    free(wt.result);
    if (wt.no_device) {
        *why = wt.no_device;
        devchild_unmeasured(kr, *why);
        return DEVCHILD_NO_DEVICE;
    }
    if (wt.cancelled)
        return DEVCHILD_CANCELLED;
    char buf[400];
    char *sentence;
    if (wt.silent) {
        snprintf(buf, sizeof buf, "no progress for %.0f s %s (a hang in the Vulkan driver); "
                 "its process was killed%s", job->silence_s,
                 wt.started ? "while running this kernel" : "while opening the device",
                 wt.started ? " and the TUI went on with the next kernel" : "");
        sentence = cw_strdup(buf);
    } else {
        int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        if (!sig) {
            snprintf(buf, sizeof buf, "the device process ended (status %d) without a result "
                     "%s", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                     wt.started ? "while running this kernel" : "while opening the device");
            sentence = cw_strdup(buf);
        } else {
            sentence = supervise_crash_sentence(
                sig, wt.started ? "while running this kernel; the TUI keeps the other "
                                  "results and goes on with the next kernel in a fresh process"
                                : "while opening the device: nothing is measured on it, the "
                                  "static analysis is still shown");
        }
    }
    devchild_unmeasured(kr, sentence);
    if (!wt.started) {
        *why = sentence;
        return DEVCHILD_NO_DEVICE;
    }
    free(sentence);
    return DEVCHILD_KERNEL_DIED;
}
