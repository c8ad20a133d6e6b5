/* cpu_isolate.h - a native CPU kernel runs in a child process, never in
 * Clockwork's own (issue 17).
 *
 * Why: a kernel is somebody else's machine code.  In-process, a segfault,
 * abort, division by zero, stack overflow, crashing constructor or exit(0)
 * killed the whole run with no report, and a heap overrun corrupted
 * Clockwork's own allocator.  In a child, whatever the kernel does, the
 * parent sees a cause and carries on with the other kernels.
 *
 * Contract:
 *   cpu_isolate_buffers_alloc() maps the kernel's buffers in memory shared
 *     with the child, each between two PROT_NONE guard pages and ending
 *     (64-byte aligned start) as close to its trailing guard page as the
 *     alignment allows; the few bytes of slack on either side are filled
 *     with a canary.  A write into a guard page is a SIGSEGV whose address
 *     names the buffer; a write into the slack is found by the canary check
 *     after each call.  The parent fills the buffers and reads them back
 *     (--dump) through the same pointers.
 *   cpu_isolate_start() forks the child: it loads the library (dlopen runs
 *     the library's constructors there only), looks the symbol up, sets the
 *     thread count of OpenBLAS / OpenMP, and waits for calls.  Counters the
 *     caller opened with inherit before the call follow the child and its
 *     threads.  The child's stdout is its stderr (a kernel's printf never
 *     reaches a report on stdout).
 *   cpu_isolate_call() runs one call, enforcing timeout_s from the parent
 *     (the child is killed with SIGKILL when it passes) and polling *cancel.
 *   Every failure returns -1 with a sentence in why naming the step (loading
 *     the library, call N) and the cause: the signal and its code and
 *     address, a buffer overrun (which buffer, which side, how far), exit()
 *     with its status, the hang guard, cancellation.  After a failure the
 *     child is gone; cpu_isolate_stop() must still be called.
 *   cpu_isolate_stop() ends the child (if any) and waits for it; it never
 *     blocks for long (a child that does not end is killed).
 * No function here ever blocks without a deadline, raises a signal in the
 * parent (SIGPIPE included) or leaves a zombie behind.
 */
#ifndef CW_CPU_ISOLATE_H
#define CW_CPU_ISOLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cpu_isolate_buffers {
    size_t n;
    void **ptr;          /* what the kernel gets: b[i] */
    uint64_t *bytes;     /* the plan's size of each */
    void **map;          /* the whole mapping, guards included */
    size_t *map_len;
} cpu_isolate_buffers;

/* 0, or -1 with why (out of memory, mmap failure). */
int cpu_isolate_buffers_alloc(cpu_isolate_buffers *b, const uint64_t *bytes,
                              size_t n, char *why, size_t why_n);
void cpu_isolate_buffers_free(cpu_isolate_buffers *b);

typedef struct cpu_isolate_spec {
    const char *kernel;      /* the plan's name, for messages */
    const char *library;     /* as dlopen() gets it (a path, or a bare name
                                for the system search) */
    const char *symbol;
    const int64_t *args;
    unsigned threads;        /* OpenBLAS / OpenMP thread count */
    double timeout_s;        /* for loading and for each call */
    volatile int *cancel;    /* may be NULL */
} cpu_isolate_spec;

typedef struct cpu_child cpu_child;

/* 0 with *out ready for calls, or -1 with why (and *out NULL: nothing to
 * stop).  The buffers must outlive the child. */
int cpu_isolate_start(const cpu_isolate_spec *spec,
                      const cpu_isolate_buffers *bufs, cpu_child **out,
                      char *why, size_t why_n);

/* One call: 0 with *rc (the kernel's return), *us (wall time of the call
 * in the child) and *delay_us (CPU wait of its threads during the call,
 * < 0 unknown); -1 with why.  call_no numbers the call in messages. */
int cpu_isolate_call(cpu_child *c, unsigned call_no, int *rc, double *us,
                     double *delay_us, char *why, size_t why_n);

/* 1 when the last failure was the cancel flag (not the kernel's fault). */
int cpu_isolate_cancelled(const cpu_child *c);

void cpu_isolate_stop(cpu_child *c);

/* Where the library would be loaded from by the system search (a bare
 * name: LD_LIBRARY_PATH, the loader cache, the default folders), found by
 * dlopen() in a short-lived child so that no constructor runs here.
 * 0 with the path, or -1 with why (dlerror's text, or how the child died). */
int cpu_isolate_find_library(const char *name, double timeout_s, char *path,
                             size_t path_n, char *why, size_t why_n);

#endif
