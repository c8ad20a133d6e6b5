/* cpu_isolate.c - a native CPU kernel in a child process (see cpu_isolate.h).
 *
 * Parent and child talk over a socketpair (send with MSG_NOSIGNAL: a dead
 * child never raises SIGPIPE here) in fixed-size messages.  The child
 * installs handlers for the crash signals on an alternate stack (a stack
 * overflow still gets one) that send the cause, naming the buffer when the
 * address is in a guard page, then die of the same signal; an on_exit
 * handler registered last turns a kernel's exit() into a message and
 * _exit(), so none of the parent's atexit handlers (the TUI's terminal
 * restore) run in the child.
 */
#include "cpu_isolate.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include "clockwork.h"
#include "fdio.h"

#define GUARD_BYTES (64u << 10) /* a random write 16 KiB past still lands here */
#define CANARY 0xA5
#define POLL_SLICE_MS 100       /* how often a long wait looks at *cancel */
#define STOP_GRACE_S 1.0        /* a child asked to quit gets this long */

enum { MSG_READY = 1, MSG_LOAD_ERROR, MSG_RESULT, MSG_CAUSE, MSG_EXIT, MSG_PATH };
enum { CMD_CALL = 'C', CMD_QUIT = 'Q' };

typedef struct msg {
    int32_t tag;
    int32_t sig, code;
    int32_t buffer;          /* guard page hit: buffer index, else -1 */
    int32_t after;           /* 1 past the end, 0 before the start */
    int32_t stack;           /* the fault address is at the stack's end */
    int64_t rc;
    uint64_t addr, offset;
    double us, delay_us;
    char text[512];
} msg;

/* A child that has ended, seen while waiting: its wait status is kept
 * (a grandchild holding the socket open must not make a dead child look
 * hung). */
typedef struct child_state {
    pid_t pid;
    int reaped;
    int status;
} child_state;

struct cpu_child {
    child_state cs;
    int fd;
    int cancelled;
    const cpu_isolate_spec *spec;
    const cpu_isolate_buffers *bufs;
};

/* ---- small helpers ---- */

static void say(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* Reads one message before the deadline.  1 got it, 0 end of stream (or
 * the child ended), -1 deadline passed, -2 cancelled, -3 read error. */
static int recv_msg(int fd, msg *m, double deadline, volatile int *cancel, child_state *cs)
{
    size_t got = 0;
    char *p = (char *)m;
    while (got < sizeof *m) {
        if (cancel && *cancel)
            return -2;
        double left = deadline - cw_monotonic_s();
        if (left <= 0)
            return -1;
        int ms = left * 1e3 < POLL_SLICE_MS ? (int)(left * 1e3) + 1 : POLL_SLICE_MS;
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r = poll(&pf, 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -3;
        if (r == 0) {
            if (cs && cs->pid > 0 && !cs->reaped &&
                waitpid(cs->pid, &cs->status, WNOHANG) == cs->pid)
                cs->reaped = 1;
            if (cs && cs->reaped && got == 0)
                return 0;
            continue;
        }
        ssize_t n = recv(fd, p + got, sizeof *m - got, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            return -3;
        if (n == 0)
            return 0;
        got += (size_t)n;
    }
    /* the child is not trusted: a kernel may write anything to the socket */
    m->text[sizeof m->text - 1] = 0;
    return 1;
}

/* Waits for pid, killing it after grace seconds; returns the wait status.
 * Then its process group goes too: whatever the kernel forked. */
static int reap_pid(pid_t pid, double grace);

static int reap(child_state *cs, double grace)
{
    int st = cs->reaped ? cs->status : reap_pid(cs->pid, grace);
    kill(-cs->pid, SIGKILL);
    cs->reaped = 1;
    cs->status = st;
    return st;
}

static int reap_pid(pid_t pid, double grace)
{
    double end = cw_monotonic_s() + grace;
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return st;
        if (r < 0 && errno != EINTR)
            return 0;
        if (cw_monotonic_s() > end) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            return st;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* ---- buffers ---- */

int cpu_isolate_buffers_alloc(cpu_isolate_buffers *b, const uint64_t *bytes,
                              size_t n, char *why, size_t why_n)
{
    memset(b, 0, sizeof *b);
    size_t cnt = n ? n : 1;
    b->ptr = calloc(cnt, sizeof *b->ptr);
    b->bytes = calloc(cnt, sizeof *b->bytes);
    b->map = calloc(cnt, sizeof *b->map);
    b->map_len = calloc(cnt, sizeof *b->map_len);
    if (!b->ptr || !b->bytes || !b->map || !b->map_len) {
        cpu_isolate_buffers_free(b);
        say(why, why_n, "out of memory for the buffer table");
        return -1;
    }
    b->n = n;
    size_t pg = page_size();
    for (size_t i = 0; i < n; i++) {
        uint64_t sz = bytes[i], body, len;
        b->bytes[i] = sz;
        if (__builtin_add_overflow(sz, (uint64_t)pg - 1, &body) ||
            __builtin_add_overflow(body / pg * pg, (uint64_t)2 * GUARD_BYTES, &len) ||
            len > SIZE_MAX) {
            say(why, why_n, "buffer %zu: %llu bytes cannot be mapped", i,
                (unsigned long long)sz);
            cpu_isolate_buffers_free(b);
            return -1;
        }
        body = body / pg * pg;
        if (!body)
            body = pg;
        len = body + 2 * GUARD_BYTES;
        void *m = mmap(NULL, (size_t)len, PROT_NONE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            say(why, why_n, "out of memory mapping buffer %zu (%llu bytes): %s", i,
                (unsigned long long)sz, strerror(errno));
            cpu_isolate_buffers_free(b);
            return -1;
        }
        b->map[i] = m;
        b->map_len[i] = (size_t)len;
        char *lo = (char *)m + GUARD_BYTES;
        if (mprotect(lo, (size_t)body, PROT_READ | PROT_WRITE) != 0) {
            say(why, why_n, "out of memory for buffer %zu (%llu bytes): %s", i,
                (unsigned long long)sz, strerror(errno));
            cpu_isolate_buffers_free(b);
            return -1;
        }
        /* end as close to the trailing guard as 64-byte alignment allows */
        uint64_t rounded = (sz + 63) / 64 * 64;
        char *p = lo + body - rounded;
        b->ptr[i] = p;
        memset(lo, CANARY, (size_t)(p - lo));
        memset(p + sz, CANARY, (size_t)(rounded - sz));
    }
    return 0;
}

void cpu_isolate_buffers_free(cpu_isolate_buffers *b)
{
    for (size_t i = 0; b->map && i < b->n; i++)
        if (b->map[i])
            munmap(b->map[i], b->map_len[i]);
    free(b->ptr);
    free(b->bytes);
    free(b->map);
    free(b->map_len);
    memset(b, 0, sizeof *b);
}

/* The first byte in [from, to) that no longer holds the canary, or NULL. */
static const unsigned char *changed_canary(const unsigned char *from, const unsigned char *to)
{
    for (; from < to; from++)
        if (*from != CANARY)
            return from;
    return NULL;
}

/* The slack between a buffer and its guards must still hold the canary:
 * a short overrun stays inside the last page and faults nothing. */
static int check_canaries(const cpu_isolate_buffers *b, char *why, size_t n)
{
    for (size_t i = 0; i < b->n; i++) {
        const unsigned char *lo = (const unsigned char *)b->map[i] + GUARD_BYTES;
        const unsigned char *p = b->ptr[i];
        const unsigned char *end = p + b->bytes[i];
        const unsigned char *hi = (const unsigned char *)b->map[i] + b->map_len[i] -
                                  GUARD_BYTES;
        const unsigned char *q = changed_canary(end, hi);
        if (q) {
            say(why, n, "wrote past the end of buffer %zu (%llu bytes): byte %zu "
                "after its end was changed", i, (unsigned long long)b->bytes[i],
                (size_t)(q - end));
            return -1;
        }
        if ((q = changed_canary(lo, p))) {
            say(why, n, "wrote before the start of buffer %zu (%llu bytes): byte %zu "
                "before it was changed", i, (unsigned long long)b->bytes[i],
                (size_t)(p - q));
            return -1;
        }
    }
    return 0;
}

/* ---- the child ---- */

static int child_fd = -1;
static const cpu_isolate_buffers *child_bufs;
static uintptr_t child_stack_lo, child_stack_hi;

static void child_send(const msg *m)
{
    if (child_fd >= 0)
        (void)cw_send_all(child_fd, m, sizeof *m);
}

/* Async-signal-safe: only arithmetic over data set up before the call. */
static void crash_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    msg m;
    memset(&m, 0, sizeof m);
    m.tag = MSG_CAUSE;
    m.sig = sig;
    m.code = si->si_code;
    m.buffer = -1;
    uintptr_t a = (uintptr_t)si->si_addr;
    m.addr = a;
    if ((sig == SIGSEGV || sig == SIGBUS) && child_bufs) {
        for (size_t i = 0; i < child_bufs->n; i++) {
            uintptr_t map = (uintptr_t)child_bufs->map[i];
            uintptr_t ptr = (uintptr_t)child_bufs->ptr[i];
            uintptr_t end = ptr + child_bufs->bytes[i];
            uintptr_t top = map + child_bufs->map_len[i];
            if (a >= map && a < map + GUARD_BYTES) {
                m.buffer = (int32_t)i;
                m.after = 0;
                m.offset = ptr - a;
            } else if (a >= top - GUARD_BYTES && a < top) {
                m.buffer = (int32_t)i;
                m.after = 1;
                m.offset = a - end;
            }
        }
        if (m.buffer < 0 && sig == SIGSEGV && a < child_stack_hi &&
            a + (1u << 20) >= child_stack_lo)
            m.stack = 1;
    }
    child_send(&m);
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

static void child_on_exit(int status, void *arg)
{
    (void)arg;
    msg m;
    memset(&m, 0, sizeof m);
    m.tag = MSG_EXIT;
    m.rc = status;
    child_send(&m);
    _exit(status);
}

static void child_setup(int fd, const cpu_isolate_buffers *bufs)
{
    /* its own process group, so that whatever the kernel forks ends with it
     * (the PR_SET_PDEATHSIG of cw_fork_tied still ends it with Clockwork on
     * Ctrl-C) */
    setpgid(0, 0);
    child_fd = fd;
    child_bufs = bufs;
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    static const int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGCHLD,
                                SIGPIPE, SIGWINCH, SIGUSR1, SIGUSR2, SIGXFSZ};
    for (size_t i = 0; i < sizeof reset / sizeof *reset; i++)
        signal(reset[i], SIG_DFL);
    /* nothing but the report may reach stdout */
    dup2(2, 1);
    /* no descriptor of Clockwork's but the socket: a kernel writing on
     * every descriptor must not reach a pipe or file of the parent's */
    if (fd > 3)
        close_range(3, (unsigned)fd - 1, 0);
    close_range((unsigned)fd + 1, ~0U, 0);
    /* where the main thread's stack ends, to tell a stack overflow */
    int here;
    struct rlimit rl;
    uintptr_t lim = 8u << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lim = (uintptr_t)rl.rlim_cur;
    child_stack_hi = (uintptr_t)&here + (64u << 10);
    child_stack_lo = (uintptr_t)&here > lim ? (uintptr_t)&here - lim : 0;
    size_t alt_n = 64u << 10;
    void *alt = mmap(NULL, alt_n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt != MAP_FAILED) {
        stack_t ss = {.ss_sp = alt, .ss_size = alt_n, .ss_flags = 0};
        sigaltstack(&ss, NULL);
    }
    static const int crash[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crash / sizeof *crash; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = crash_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(crash[i], &sa, NULL);
    }
    on_exit(child_on_exit, NULL);
}

/* Time this process's threads spent runnable but waiting for a CPU
 * (run_delay of /proc/self/task/<tid>/schedstat, ns).  On a machine shared
 * with other processes this is the wall time the kernel lost to them. */
#define MAX_TASKS 256

typedef struct task_delays {
    size_t n;
    long tid[MAX_TASKS];
    uint64_t delay_ns[MAX_TASKS];
} task_delays;

static int read_task_delays(task_delays *t)
{
    t->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) && t->n < MAX_TASKS) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long long run, wait;
        if (fscanf(f, "%llu %llu", &run, &wait) == 2) {
            t->tid[t->n] = atol(e->d_name);
            t->delay_ns[t->n++] = wait;
        }
        fclose(f);
    }
    closedir(d);
    return t->n ? 0 : -1;
}

/* Largest per-thread growth of run_delay between two snapshots, in us: a
 * kernel whose threads meet at barriers loses about the worst thread's
 * wait.  Threads born in between count from zero. */
static double max_delay_us(const task_delays *a, const task_delays *b)
{
    uint64_t worst = 0;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t base = 0;
        for (size_t j = 0; j < a->n; j++)
            if (a->tid[j] == b->tid[i]) {
                base = a->delay_ns[j];
                break;
            }
        if (b->delay_ns[i] > base && b->delay_ns[i] - base > worst)
            worst = b->delay_ns[i] - base;
    }
    return (double)worst / 1e3;
}

static __attribute__((noreturn)) void child_main(const cpu_isolate_spec *s,
                                                 const cpu_isolate_buffers *bufs)
{
    msg m;
    memset(&m, 0, sizeof m);
    dlerror();
    void *lib = dlopen(s->library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        m.tag = MSG_LOAD_ERROR;
        snprintf(m.text, sizeof m.text, "cannot load %s: %s", s->library,
                 e ? e : "unknown error");
        child_send(&m);
        _exit(0);
    }
    dlerror();
    void *sym = dlsym(lib, s->symbol);
    if (!sym) {
        const char *e = dlerror();
        m.tag = MSG_LOAD_ERROR;
        snprintf(m.text, sizeof m.text, "symbol '%s' not found in %s: %s", s->symbol,
                 s->library, e ? e : "null address");
        child_send(&m);
        _exit(0);
    }
    clockwork_kernel_fn *fn;
    *(void **)&fn = sym;
    /* the plan's thread count for libraries that keep a pool; OpenMP's
     * ICVs are per thread, and this thread makes the calls */
    void (*set_threads)(int) = NULL;
    *(void **)&set_threads = dlsym(lib, "openblas_set_num_threads");
    if (set_threads)
        set_threads((int)s->threads);
    *(void **)&set_threads = dlsym(lib, "omp_set_num_threads");
    if (set_threads)
        set_threads((int)s->threads);
    m.tag = MSG_READY;
    child_send(&m);
    static task_delays before, after;
    for (;;) {
        char cmd;
        ssize_t r = recv(child_fd, &cmd, 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || cmd != CMD_CALL)
            _exit(0);
        int hb = read_task_delays(&before) == 0;
        double t0 = cw_monotonic_s();
        int rc = fn((void *const *)bufs->ptr, s->args);
        double t1 = cw_monotonic_s();
        int ha = hb && read_task_delays(&after) == 0;
        memset(&m, 0, sizeof m);
        m.tag = MSG_RESULT;
        m.rc = rc;
        m.us = (t1 - t0) * 1e6;
        m.delay_us = ha ? max_delay_us(&before, &after) : -1;
        child_send(&m);
    }
}

/* Forks; in the child runs body(arg) after child_setup and never returns.
 * Returns the pid with *fd the parent's end, or -1 with why. */
static pid_t spawn(const cpu_isolate_buffers *bufs, void (*body)(const void *),
                   const void *arg, int *fd, char *why, size_t why_n)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        say(why, why_n, "cannot create the socket to the kernel's process: %s",
            strerror(errno));
        return -1;
    }
    pid_t pid = cw_fork_tied(sv);
    if (pid < 0) {
        say(why, why_n, "cannot start the kernel's process: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        child_setup(sv[1], bufs);
        body(arg);
        _exit(0);
    }
    setpgid(pid, pid); /* also here: no race with a kill of the group */
    *fd = sv[0];
    return pid;
}

typedef struct kernel_body_arg {
    const cpu_isolate_spec *spec;
    const cpu_isolate_buffers *bufs;
} kernel_body_arg;

static void kernel_body(const void *p)
{
    const kernel_body_arg *a = p;
    child_main(a->spec, a->bufs);
}

/* ---- the parent: what happened to the child ---- */

static const char *signal_text(int sig, int code)
{
    switch (sig) {
    case SIGSEGV:
        return code == SEGV_ACCERR ? "invalid memory access (permission)"
                                   : "invalid memory access (unmapped address)";
    case SIGBUS:
        return "bus error (misaligned access or a mapping past its file)";
    case SIGFPE:
        return code == FPE_INTDIV ? "integer division by zero"
               : code == FPE_INTOVF ? "integer overflow"
                                    : "arithmetic exception";
    case SIGILL:
        return "illegal instruction (built for another CPU?)";
    case SIGABRT:
        return "abort() (an assertion, or the C library found a corrupted heap)";
    case SIGTRAP:
        return "trap (a breakpoint instruction)";
    case SIGSYS:
        return "bad system call";
    case SIGKILL:
        return "killed (out of memory?)";
    default:
        return "signal";
    }
}

/* One sentence for a child that ended (st from waitpid), using the last
 * cause message if there was one. */
static void describe_end(const msg *cause, int have_cause, int st,
                         const cpu_isolate_buffers *bufs, char *why, size_t n)
{
    if (have_cause && cause->tag == MSG_CAUSE) {
        const char *name = sigabbrev_np(cause->sig);
        if (cause->buffer >= 0 && bufs && (size_t)cause->buffer < bufs->n)
            say(why, n, "killed by SIG%s: accessed memory %llu bytes %s buffer %d "
                "(%llu bytes; caught by the guard page)", name ? name : "?",
                (unsigned long long)cause->offset,
                cause->after ? "past the end of" : "before the start of", cause->buffer,
                (unsigned long long)bufs->bytes[cause->buffer]);
        else if (cause->stack)
            say(why, n, "killed by SIG%s: stack overflow (address 0x%llx at the end of "
                "the stack; deep recursion or a large local array)", name ? name : "?",
                (unsigned long long)cause->addr);
        else if (cause->sig == SIGSEGV || cause->sig == SIGBUS || cause->sig == SIGFPE ||
                 cause->sig == SIGILL)
            say(why, n, "killed by SIG%s: %s at address 0x%llx", name ? name : "?",
                signal_text(cause->sig, cause->code), (unsigned long long)cause->addr);
        else
            say(why, n, "killed by SIG%s: %s", name ? name : "?",
                signal_text(cause->sig, cause->code));
        return;
    }
    if (have_cause && cause->tag == MSG_EXIT) {
        say(why, n, "called exit(%lld): a kernel must return, not end the process",
            (long long)cause->rc);
        return;
    }
    if (WIFSIGNALED(st)) {
        const char *name = sigabbrev_np(WTERMSIG(st));
        say(why, n, "killed by SIG%s: %s", name ? name : "?",
            signal_text(WTERMSIG(st), 0));
    } else if (WIFEXITED(st)) {
        say(why, n, "its process ended with status %d without a word (_exit or a "
            "crash handler of its own)", WEXITSTATUS(st));
    } else {
        say(why, n, "its process ended unexpectedly");
    }
}

/* After a failure: end the child, then say what happened.  phase names
 * the step ("while loading the library", "on call 3"). */
static void child_failed(cpu_child *c, int r, const char *phase, char *why, size_t n)
{
    const cpu_isolate_spec *s = c->spec;
    char cause[700];
    if (r == -1 || r == -2) {
        if (!c->cs.reaped)
            kill(c->cs.pid, SIGKILL);
        (void)reap(&c->cs, 5);
        if (r == -1)
            snprintf(cause, sizeof cause, "did not return within %.3g s (hang guard, "
                     "--timeout); its process was killed", s->timeout_s);
        else
            snprintf(cause, sizeof cause, "cancelled");
        c->cancelled = r == -2;
    } else {
        /* r == 1: a message the protocol does not have, i.e. the kernel
         * wrote on the socket: stop it, it may write forever */
        if (r == 1 && !c->cs.reaped)
            kill(c->cs.pid, SIGKILL);
        /* the cause message, if any, came before the end of the stream;
         * bounded: a kernel's own writes must not keep us reading */
        msg m, cm;
        int have = 0;
        double end = cw_monotonic_s() + 0.5;
        for (int k = 0; k < 64 && recv_msg(c->fd, &m, end, NULL, &c->cs) == 1; k++)
            if (m.tag == MSG_CAUSE || m.tag == MSG_EXIT) {
                cm = m;
                have = 1;
            }
        int st = reap(&c->cs, 2);
        if (r == 1 && !have)
            snprintf(cause, sizeof cause, "wrote something other than a result on "
                     "Clockwork's socket (the kernel writes to file descriptors it does "
                     "not own); its process was killed");
        else
            describe_end(&cm, have, st, c->bufs, cause, sizeof cause);
    }
    c->cs.pid = -1;
    say(why, n, "kernel '%s' (%s in %s) %s %s", s->kernel, s->symbol, s->library,
        phase, cause);
}

int cpu_isolate_start(const cpu_isolate_spec *spec, const cpu_isolate_buffers *bufs,
                      cpu_child **out, char *why, size_t why_n)
{
    *out = NULL;
    cpu_child *c = calloc(1, sizeof *c);
    if (!c) {
        say(why, why_n, "out of memory");
        return -1;
    }
    c->spec = spec;
    c->bufs = bufs;
    kernel_body_arg a = {spec, bufs};
    c->cs.pid = spawn(bufs, kernel_body, &a, &c->fd, why, why_n);
    if (c->cs.pid < 0) {
        free(c);
        return -1;
    }
    msg m;
    int r = recv_msg(c->fd, &m, cw_monotonic_s() + spec->timeout_s, spec->cancel, &c->cs);
    if (r == 1 && m.tag == MSG_READY) {
        *out = c;
        return 0;
    }
    if (r == 1 && m.tag == MSG_LOAD_ERROR) {
        (void)reap(&c->cs, STOP_GRACE_S);
        c->cs.pid = -1;
        say(why, why_n, "%s", m.text);
    } else if (r == 1 && (m.tag == MSG_CAUSE || m.tag == MSG_EXIT)) {
        int st = reap(&c->cs, 2);
        c->cs.pid = -1;
        char cause[700];
        describe_end(&m, 1, st, bufs, cause, sizeof cause);
        say(why, why_n, "kernel '%s': the library %s failed while loading, in a "
            "constructor of its own or of a library it needs: %s", spec->kernel,
            spec->library, cause);
    } else {
        child_failed(c, r, "while loading the library:", why, why_n);
    }
    close(c->fd);
    free(c);
    return -1;
}

int cpu_isolate_call(cpu_child *c, unsigned call_no, int *rc, double *us,
                     double *delay_us, char *why, size_t why_n)
{
    char phase[64];
    snprintf(phase, sizeof phase, "on call %u:", call_no);
    if (c->cs.pid < 0) {
        say(why, why_n, "kernel '%s': its process is gone", c->spec->kernel);
        return -1;
    }
    char cmd = CMD_CALL;
    if (cw_send_all(c->fd, &cmd, 1) != 0) {
        child_failed(c, 0, phase, why, why_n);
        return -1;
    }
    msg m;
    int r = recv_msg(c->fd, &m, cw_monotonic_s() + c->spec->timeout_s, c->spec->cancel, &c->cs);
    if (r == 1 && m.tag == MSG_RESULT) {
        *rc = (int)m.rc;
        *us = m.us;
        *delay_us = m.delay_us;
        char over[400];
        if (check_canaries(c->bufs, over, sizeof over) != 0) {
            if (!c->cs.reaped)
            kill(c->cs.pid, SIGKILL);
            (void)reap(&c->cs, 5);
            c->cs.pid = -1;
            say(why, why_n, "kernel '%s' (%s in %s) %s %s", c->spec->kernel,
                c->spec->symbol, c->spec->library, phase, over);
            return -1;
        }
        return 0;
    }
    if (r == 1 && (m.tag == MSG_CAUSE || m.tag == MSG_EXIT)) {
        int st = reap(&c->cs, 2);
        c->cs.pid = -1;
        char cause[700];
        describe_end(&m, 1, st, c->bufs, cause, sizeof cause);
        say(why, why_n, "kernel '%s' (%s in %s) %s %s", c->spec->kernel, c->spec->symbol,
            c->spec->library, phase, cause);
        return -1;
    }
    child_failed(c, r, phase, why, why_n);
    return -1;
}

int cpu_isolate_cancelled(const cpu_child *c)
{
    return c && c->cancelled;
}

void cpu_isolate_stop(cpu_child *c)
{
    if (!c)
        return;
    if (c->cs.pid > 0) {
        char cmd = CMD_QUIT;
        (void)cw_send_all(c->fd, &cmd, 1);
        (void)reap(&c->cs, STOP_GRACE_S);
    }
    close(c->fd);
    free(c);
}

/* ---- the system search, in a child ---- */

typedef struct find_arg {
    const char *name;
} find_arg;

static void find_body(const void *p)
{
    const find_arg *a = p;
    msg m;
    memset(&m, 0, sizeof m);
    dlerror();
    void *h = dlopen(a->name, RTLD_LAZY | RTLD_LOCAL);
    struct link_map *lm = NULL;
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0]) {
        m.tag = MSG_PATH;
        snprintf(m.text, sizeof m.text, "%s", lm->l_name);
    } else {
        const char *e = dlerror();
        m.tag = MSG_LOAD_ERROR;
        snprintf(m.text, sizeof m.text, "%s", e ? e : "not found");
    }
    child_send(&m);
    _exit(0);
}

int cpu_isolate_find_library(const char *name, double timeout_s, char *path,
                             size_t path_n, char *why, size_t why_n)
{
    int fd;
    find_arg a = {name};
    pid_t pid = spawn(NULL, find_body, &a, &fd, why, why_n);
    if (pid < 0)
        return -1;
    msg m;
    child_state cs = {.pid = pid};
    int r = recv_msg(fd, &m, cw_monotonic_s() + timeout_s, NULL, &cs);
    int ret = -1;
    if (r == 1 && m.tag == MSG_PATH) {
        snprintf(path, path_n, "%s", m.text);
        ret = 0;
    } else if (r == 1 && m.tag == MSG_LOAD_ERROR) {
        say(why, why_n, "%s", m.text);
    } else if (r == -1) {
        kill(pid, SIGKILL);
        say(why, why_n, "loading it did not finish within %.3g s", timeout_s);
    } else {
        if (!cs.reaped)
            kill(pid, SIGKILL);
        int st = reap(&cs, 2);
        pid = -1;
        char cause[700];
        describe_end(&m, r == 1, st, NULL, cause, sizeof cause);
        say(why, why_n, "loading it %s (in a constructor)", cause);
    }
    if (pid > 0)
        (void)reap(&cs, 2);
    close(fd);
    return ret;
}
