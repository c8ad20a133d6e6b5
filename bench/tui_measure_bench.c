/* tui_measure_bench.c - how long the TUI takes from starting to measure a
 * kernel to its first live sample, and to its result.
 *
 * Runs the TUI's worker (tui/worker.h) over a plan as the TUI does (GPU
 * kernels in a child process unless CW_NO_SUPERVISE=1), timestamps the
 * worker's messages as they arrive (polled every millisecond): a kernel's
 * "measuring" state, its first sample, its result.  With REPS > 1 the
 * measurement is started again (the TUI's r key) and each round reported.
 * Prints one line a kernel and round; then, per kernel, the median over
 * the rounds.  With a third argument, writes the kernel reports the TUI
 * holds at the end (last round) as a report JSON there: the input of the
 * supervised-vs-in-process comparison (tests/integration/tui_same.sh).
 *
 *   tui_measure_bench PLAN [REPS [REPORT.json]]
 * Environment: CW_BENCH_SAMPLES, CW_BENCH_BUDGET_S (default 5 and 0.5 s),
 * CW_BENCH_PROFILE (--profile: a file or built-in key).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plan.h"
#include "report.h"
#include "session.h"
#include "state.h"
#include "tui.h"
#include "worker.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct ktime {
    double start, first, done; /* ms; 0 = not seen */
} ktime;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Folds messages into st and the timestamps; 1 once every kernel of the
 * round has its result. */
static int drain(worker *w, tui_state *st, ktime *t, size_t nk)
{
    tui_msg *m = NULL;
    size_t n = worker_drain(w, &m);
    double at = now_ms();
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t)m[i].index;
        if (m[i].plan == 0 && k < nk) {
            if (m[i].kind == MSG_STATE && m[i].state == KS_MEASURING)
                t[k] = (ktime){at, 0, 0};
            else if (m[i].kind == MSG_SAMPLE && t[k].start && !t[k].first)
                t[k].first = at;
            else if (m[i].kind == MSG_MEASURED && t[k].start)
                t[k].done = at;
        }
        state_apply(st, &m[i]);
        state_msg_free(&m[i]);
    }
    free(m);
    size_t done = 0;
    for (size_t k = 0; k < nk; k++)
        done += t[k].done > 0;
    return done == nk;
}

static int write_reports(const tui_state *st, const char *path)
{
    report r;
    report_init(&r);
    for (size_t i = 0; i < st->nk; i++) {
        kernel_report *kr = report_add_kernel(&r, st->k[i].kr.name);
        kernel_report_free(kr);
        kernel_report_copy(kr, &st->k[i].kr);
    }
    char *json = report_to_json_text(&r);
    FILE *f = fopen(path, "w");
    int rc = !json || !f || fputs(json, f) < 0;
    if (f && fclose(f))
        rc = 1;
    free(json);
    report_free(&r);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tui_measure_bench PLAN [REPS [REPORT.json]]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    if (reps < 1)
        reps = 1;
    plan p;
    cw_error err;
    if (plan_load(argv[1], &p, &err) != 0) {
        fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.text);
        return 2;
    }
    cw_options o;
    cw_options_default(&o);
    const char *s = getenv("CW_BENCH_SAMPLES"), *b = getenv("CW_BENCH_BUDGET_S");
    o.samples = s ? (unsigned)atoi(s) : 5;
    o.budget_s = b ? atof(b) : 0.5;
    const char *prof = getenv("CW_BENCH_PROFILE"); /* --profile; unset or "": the device's */
    o.profile = prof && *prof ? prof : NULL;
    tui_args a = {.plans = &p, .nplans = 1, .opt = &o, .measure = 1};
    tui_state st;
    state_init(&st);
    st.measure = 1;
    size_t nk = p.nkernels;
    ktime *t = calloc(nk, sizeof *t);
    double *first = calloc(nk * (size_t)reps, sizeof *first);
    double *total = calloc(nk * (size_t)reps, sizeof *total);
    worker *w = NULL;
    if (!t || !first || !total || worker_start(&a, &w) != 0) {
        fprintf(stderr, "cannot start the worker\n");
        return 1;
    }
    const char *mode = getenv("CW_NO_SUPERVISE") && strcmp(getenv("CW_NO_SUPERVISE"), "0")
                           ? "in-process" : "child";
    printf("%-6s %-20s %-11s %18s %16s\n", "round", "kernel", "measured", "to first sample",
           "to result");
    int rc = 0;
    for (int r = 0; r < reps && !rc; r++) {
        memset(t, 0, nk * sizeof *t);
        if (r > 0) {
            while (!worker_settled(w)) /* the round before is over */
                drain(w, &st, t, nk), usleep(1000);
            memset(t, 0, nk * sizeof *t);
            worker_rerun(w);
        }
        double give_up = now_ms() + 600e3;
        while (!drain(w, &st, t, nk)) {
            if (now_ms() > give_up) {
                fprintf(stderr, "round %d: gave up after 600 s\n", r + 1);
                rc = 1;
                break;
            }
            usleep(1000);
        }
        for (size_t k = 0; k < nk && !rc; k++) {
            first[k * (size_t)reps + (size_t)r] = t[k].first ? t[k].first - t[k].start : -1;
            total[k * (size_t)reps + (size_t)r] = t[k].done - t[k].start;
            printf("%-6d %-20s %-11s %15.0f ms %13.0f ms\n", r + 1, p.kernels[k].name, mode,
                   t[k].first ? t[k].first - t[k].start : -1, t[k].done - t[k].start);
        }
    }
    while (!rc && !worker_settled(w))
        drain(w, &st, t, nk), usleep(1000);
    drain(w, &st, t, nk);
    worker_stop(w);
    printf("median over %d round(s):\n", reps);
    for (size_t k = 0; k < nk && !rc; k++) {
        qsort(first + k * (size_t)reps, (size_t)reps, sizeof *first, cmp);
        qsort(total + k * (size_t)reps, (size_t)reps, sizeof *total, cmp);
        printf("%-6s %-20s %-11s %15.0f ms %13.0f ms\n", "median", p.kernels[k].name, mode,
               first[k * (size_t)reps + (size_t)reps / 2],
               total[k * (size_t)reps + (size_t)reps / 2]);
    }
    if (!rc && argc > 3 && write_reports(&st, argv[3])) {
        fprintf(stderr, "cannot write %s\n", argv[3]);
        rc = 1;
    }
    state_free(&st);
    plan_free(&p);
    free(t);
    free(first);
    free(total);
    return rc;
}
