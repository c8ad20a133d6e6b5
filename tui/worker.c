/* worker.c - measurement thread + locked message queue (see worker.h). */
#include "worker.h"
#include "alloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "devchild.h"
#include "session.h"
#include "source.h"

typedef struct wkernel {
    int need_check, need_measure;
    kernel_report kr; /* static result, kept to measure from */
    kernel_artifacts art;
    int have;         /* kr and art valid */
    /* GPU kernels measured in a child: kr before the prediction, what the
     * child predicts from for its device (devchild.h) */
    kernel_report analysed;
    int have_analysed;
    struct timespec src_mtime;
} wkernel;

typedef struct wplan {
    plan *p;       /* current plan */
    plan own;      /* storage when the worker reloaded it */
    int owned;
    struct timespec mtime;
    wkernel *k;
    size_t nk;
} wplan;

struct worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* wakes the worker */
    pthread_cond_t done;  /* wakes a snapshot waiting for settling */
    tui_msg *q;
    size_t nq, cap;
    int quit, paused, rerun, settled;
    int loop;             /* measure again and again (key l) */
    volatile int cancel;
    int measure;
    const cw_options *opt;
    wplan *plans;
    size_t nplans;
    session s;            /* device, profile, run options (session.h) */
    int gpu_child;        /* GPU kernels are measured in a child (devchild.h) */
    char *gpu_gone;       /* why no GPU kernel can be measured any more */
    char *warned[16];     /* device-process warnings already shown */
    size_t nwarned;
    int started;
    char last_sampling[1024]; /* skip repeating the same header text */
};

/* ---- the queue ---- */

static void post(worker *w, tui_msg *m)
{
    pthread_mutex_lock(&w->mu);
    if (w->nq == w->cap) {
        size_t nc = w->cap ? w->cap * 2 : 64;
        tui_msg *nq = realloc(w->q, nc * sizeof *nq);
        if (!nq) {
            pthread_mutex_unlock(&w->mu);
            state_msg_free(m);
            return; /* drop the message rather than die in the worker */
        }
        w->q = nq;
        w->cap = nc;
    }
    w->q[w->nq++] = *m;
    pthread_mutex_unlock(&w->mu);
    memset(m, 0, sizeof *m);
}

static void post_text(worker *w, msg_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void post_text(worker *w, msg_kind kind, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (kind == MSG_SAMPLING) {
        if (strcmp(buf, w->last_sampling) == 0)
            return;
        snprintf(w->last_sampling, sizeof w->last_sampling, "%s", buf);
    }
    tui_msg m = {.kind = kind, .text = cw_strdup(buf)};
    post(w, &m);
}

static void post_state(worker *w, int p, int i, kernel_state s)
{
    tui_msg m = {.kind = MSG_STATE, .plan = p, .index = i, .state = s};
    post(w, &m);
}

size_t worker_drain(worker *w, tui_msg **msgs)
{
    pthread_mutex_lock(&w->mu);
    size_t n = w->nq;
    *msgs = w->q;
    w->q = NULL;
    w->nq = w->cap = 0;
    pthread_mutex_unlock(&w->mu);
    return n;
}

/* ---- files ---- */

static struct timespec mtime_of(const char *path)
{
    struct stat st;
    struct timespec z = {0, 0};
    if (!path || stat(path, &st) != 0)
        return z;
    return st.st_mtim;
}

static int ts_diff(struct timespec a, struct timespec b)
{
    return a.tv_sec != b.tv_sec || a.tv_nsec != b.tv_nsec;
}

static const char *kernel_file(const plan_kernel *k)
{
    return k->kind == PLAN_KERNEL_CPU ? k->library_path : k->shader_path;
}

static void wkernel_clear(wkernel *k)
{
    if (k->have) {
        kernel_report_free(&k->kr);
        kernel_artifacts_free(&k->art);
    }
    if (k->have_analysed)
        kernel_report_free(&k->analysed);
    memset(k, 0, sizeof *k);
}

/* (Re)build the job table of one plan and announce its kernels. */
static void plan_jobs(worker *w, size_t pi)
{
    wplan *wp = &w->plans[pi];
    for (size_t i = 0; i < wp->nk; i++)
        wkernel_clear(&wp->k[i]);
    free(wp->k);
    wp->nk = wp->p->nkernels;
    wp->k = xcalloc(wp->nk, sizeof *wp->k);
    tui_msg m = {.kind = MSG_KERNELS, .plan = (int)pi};
    m.names = xcalloc(wp->nk, sizeof *m.names);
    m.nnames = wp->nk;
    for (size_t i = 0; i < wp->nk; i++) {
        wp->k[i].need_check = 1;
        wp->k[i].src_mtime = mtime_of(kernel_file(&wp->p->kernels[i]));
        m.names[i] = cw_strdup(wp->p->kernels[i].name);
    }
    wp->mtime = mtime_of(wp->p->path);
    post(w, &m);
}

/* Poll plan and shader mtimes; mark what changed.  Returns 1 if any. */
static int poll_files(worker *w)
{
    int any = 0;
    for (size_t pi = 0; pi < w->nplans; pi++) {
        wplan *wp = &w->plans[pi];
        struct timespec t = mtime_of(wp->p->path);
        if ((t.tv_sec || t.tv_nsec) && ts_diff(t, wp->mtime)) {
            wp->mtime = t;
            plan np;
            cw_error err;
            cw_error_clear(&err);
            if (plan_load(wp->p->path, &np, &err) != 0) {
                char msg[1600];
                cw_error_format(&err, msg, sizeof msg);
                post_text(w, MSG_STATUS, "plan not reloaded: %s", msg);
                continue;
            }
            /* the old artifacts point into the old plan: drop them first */
            for (size_t i = 0; i < wp->nk; i++)
                wkernel_clear(&wp->k[i]);
            if (wp->owned)
                plan_free(&wp->own);
            wp->own = np;
            wp->owned = 1;
            wp->p = &wp->own;
            plan_jobs(w, pi);
            post_text(w, MSG_STATUS, "%s changed: re-analysing %zu kernels",
                      wp->p->path, wp->nk);
            any = 1;
            continue;
        }
        for (size_t i = 0; i < wp->nk; i++) {
            const plan_kernel *k = &wp->p->kernels[i];
            struct timespec s = mtime_of(kernel_file(k));
            if ((s.tv_sec || s.tv_nsec) && ts_diff(s, wp->k[i].src_mtime)) {
                wp->k[i].src_mtime = s;
                wp->k[i].need_check = 1;
                post_text(w, MSG_STATUS, "%s changed: re-analysing %s",
                          kernel_file(k), k->name);
                any = 1;
            }
        }
    }
    return any;
}

/* ---- device, profile, counters ---- */

/* The session: device (when measuring), profile, run options. */
static void setup_device(worker *w, report_device *rd)
{
    if (w->measure)
        post_text(w, MSG_SAMPLING, "opening the device");
    session_kinds kinds = {0, 0};
    for (size_t pi = 0; pi < w->nplans; pi++) {
        session_kinds n = session_count_kinds(w->plans[pi].p, 1);
        kinds.gpu += n.gpu;
        kinds.cpu += n.cpu;
    }
    cw_error err;
    /* the driver is loaded in a child per measurement, never here: a crash
     * in it ends that child, not the TUI (CW_NO_SUPERVISE=1: here) */
    w->gpu_child = w->measure && kinds.gpu && devchild_enabled();
    int rc = w->gpu_child ? session_open_gpu_elsewhere(&w->s, w->opt, w->measure, kinds, rd, &err)
                          : session_open(&w->s, w->opt, w->measure, kinds, rd, &err);
    if (rc != 0) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        post_text(w, MSG_STATUS, "%s: %s",
                  rc == CW_STATUS_ENV ? "no measurement" : "profile", msg);
    }
}

static kernel_report *probe_counters(worker *w)
{
    cw_error err;
    kernel_report *kr = xcalloc(1, sizeof *kr);
    if (session_probe_counters(&w->s, &kr->measurement, &err) != 0) {
        char msg[1600];
        cw_error_format(&err, msg, sizeof msg);
        post_text(w, MSG_STATUS, "counters: %s", msg);
    }
    return kr;
}

/* ---- jobs ---- */

static void do_check(worker *w, size_t pi, size_t i)
{
    wplan *wp = &w->plans[pi];
    wkernel *wk = &wp->k[i];
    const plan_kernel *k = &wp->p->kernels[i];
    post_state(w, (int)pi, (int)i, KS_CHECKING);
    wkernel_clear(wk);
    wk->src_mtime = mtime_of(kernel_file(k));
    cw_set_str(&wk->kr.name, k->name);
    wk->kr.plan_index = wk->kr.source = -1; /* as in a report: not known, not merged */
    session_analyse_kernel(&w->s, k, &wk->kr, &wk->art);
    if (w->gpu_child && k->kind != PLAN_KERNEL_CPU) {
        kernel_report_copy(&wk->analysed, &wk->kr);
        wk->have_analysed = 1;
    }
    session_predict_kernel(&w->s, k, &wk->kr, &wk->art);
    wk->have = 1;
    tui_msg m = {.kind = MSG_STATIC, .plan = (int)pi, .index = (int)i,
                 .state = KS_CHECKED};
    m.kr = xcalloc(1, sizeof *m.kr);
    state_report_copy(m.kr, &wk->kr);
    if (wk->art.have_module)
        m.source = source_text(&wk->art.module, &m.source_glsl);
    if (wk->art.have_result && wk->art.result.ok) {
        m.counts = xcalloc(1, sizeof *m.counts);
        state_counts_copy(m.counts, &wk->art.result.counts);
    }
    if (wk->art.have_result && wk->art.result.counts.nlines) {
        const kernel_counts *c = &wk->art.result.counts;
        m.lines = xcalloc(c->nlines, sizeof *m.lines);
        memcpy(m.lines, c->lines, c->nlines * sizeof *m.lines);
        m.nlines = c->nlines;
    }
    post(w, &m);
    wk->need_check = 0;
    wk->need_measure = w->measure;
}

typedef struct sample_ctx {
    worker *w;
    int plan, index;
} sample_ctx;

static void on_sample(void *user, double us)
{
    sample_ctx *s = user;
    tui_msg m = {.kind = MSG_SAMPLE, .plan = s->plan, .index = s->index,
                 .sample_us = us};
    post(s->w, &m);
}

/* A warning of the device process (an unusable shader-cache folder ...):
 * on the status line, once per text. */
static void on_child_warning(void *user, const char *line)
{
    worker *w = ((sample_ctx *)user)->w;
    for (size_t i = 0; i < w->nwarned; i++)
        if (!strcmp(w->warned[i], line))
            return;
    if (w->nwarned < sizeof w->warned / sizeof *w->warned)
        w->warned[w->nwarned++] = cw_strdup(line);
    post_text(w, MSG_STATUS, "warning: %s", line);
}

/* A GPU kernel in a child process: a driver crash names the kernel on its
 * row and the TUI goes on (devchild.h). */
static void measure_in_child(worker *w, const wkernel *wk, const plan_kernel *k, sample_ctx *sc,
                             kernel_report *kr)
{
    if (w->gpu_gone) {
        devchild_unmeasured(kr, w->gpu_gone);
        return;
    }
    double guard = w->opt->timeout_s > 0 ? w->opt->timeout_s : 10;
    devchild_job job = {.opt = w->opt, .k = k, .on_sample = on_sample, .user = sc,
                        .analysed = wk->have_analysed ? &wk->analysed : NULL,
                        .art = &wk->art, .prof = &w->s.prof,
                        .cancel = &w->cancel, .silence_s = guard * 6 > 60 ? guard * 6 : 60,
                        .on_warning = on_child_warning};
    const char *lim = getenv("CW_SUPERVISE_SILENCE_S"); /* tests */
    if (lim && atof(lim) > 0)
        job.silence_s = atof(lim);
    char *why = NULL;
    devchild_status st = devchild_measure(&job, kr, &why);
    if (st == DEVCHILD_NO_DEVICE) {
        w->gpu_gone = why;
        post_text(w, MSG_STATUS, "no measurement: %s", why);
    } else if (st == DEVCHILD_KERNEL_DIED) {
        post_text(w, MSG_STATUS, "%s: %s", k->name, kr->measurement.error);
    } else if (st == DEVCHILD_CANCELLED) {
        devchild_unmeasured(kr, "the measurement was stopped");
    }
}

/* Returns 1 when the kernel ran and gave samples. */
static int do_measure(worker *w, size_t pi, size_t i)
{
    wplan *wp = &w->plans[pi];
    wkernel *wk = &wp->k[i];
    const plan_kernel *k = &wp->p->kernels[i];
    wk->need_measure = 0;
    post_state(w, (int)pi, (int)i, KS_MEASURING);
    kernel_report *kr = xcalloc(1, sizeof *kr);
    state_report_copy(kr, &wk->kr);
    sample_ctx sc = {w, (int)pi, (int)i};
    session_live live = {.on_sample = on_sample, .user = &sc,
                         .cancel = (volatile int *)&w->cancel};
    w->cancel = 0;
    if (w->gpu_child && k->kind != PLAN_KERNEL_CPU)
        measure_in_child(w, wk, k, &sc, kr);
    else
        session_measure_kernel(&w->s, k, &wk->art, &live, kr);
    int ran = kr->measurement.valid && !kr->measurement.error;
    tui_msg m = {.kind = MSG_MEASURED, .plan = (int)pi, .index = (int)i,
                 .kr = kr};
    post(w, &m);
    return ran;
}

static int count_pending(const worker *w, int *checks, int *measures)
{
    *checks = *measures = 0;
    for (size_t pi = 0; pi < w->nplans; pi++)
        for (size_t i = 0; i < w->plans[pi].nk; i++) {
            *checks += w->plans[pi].k[i].need_check;
            *measures += w->plans[pi].k[i].need_measure;
        }
    return *checks + *measures;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    tui_msg m = {.kind = MSG_DEVICE};
    m.dev = xcalloc(1, sizeof *m.dev);
    setup_device(w, m.dev);
    m.prof = xcalloc(1, sizeof *m.prof);
    *m.prof = *session_device_profile(&w->s);
    m.counters = probe_counters(w);
    post(w, &m);
    for (size_t pi = 0; pi < w->nplans; pi++)
        plan_jobs(w, pi);
    unsigned runs = 0; /* kernels measured since the worker was last idle */
    unsigned round = 1; /* loop mode: the round being measured */
    int was_idle = 0;
    struct timespec last_poll;
    clock_gettime(CLOCK_MONOTONIC, &last_poll);
    for (;;) {
        pthread_mutex_lock(&w->mu);
        if (w->quit) {
            pthread_mutex_unlock(&w->mu);
            break;
        }
        if (w->rerun) {
            w->rerun = 0;
            runs = 0;
            for (size_t pi = 0; pi < w->nplans; pi++)
                for (size_t i = 0; i < w->plans[pi].nk; i++)
                    if (!w->plans[pi].k[i].need_check)
                        w->plans[pi].k[i].need_measure = w->measure;
        }
        int paused = w->paused;
        pthread_mutex_unlock(&w->mu);

        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - last_poll.tv_sec >= 1) {
            poll_files(w);
            last_poll = now;
        }
        int nc, nm;
        count_pending(w, &nc, &nm);
        size_t total = 0;
        for (size_t pi = 0; pi < w->nplans; pi++)
            total += w->plans[pi].nk;
        if (was_idle && nc + (paused ? 0 : nm) > 0) {
            runs = 0; /* a new round of work: count it from zero */
            was_idle = 0;
        }
        int job = 0;
        for (size_t pi = 0; pi < w->nplans && !job; pi++)
            for (size_t i = 0; i < w->plans[pi].nk && !job; i++)
                if (w->plans[pi].k[i].need_check) {
                    post_text(w, MSG_SAMPLING, "analysing %s",
                              w->plans[pi].p->kernels[i].name);
                    do_check(w, pi, i);
                    job = 1;
                }
        for (size_t pi = 0; pi < w->nplans && !job && !paused; pi++)
            for (size_t i = 0; i < w->plans[pi].nk && !job; i++)
                if (w->plans[pi].k[i].need_measure) {
                    /* loop mode keeps one prefix, round after round, so the
                     * header does not alternate between unrelated texts */
                    if (w->loop)
                        post_text(w, MSG_SAMPLING, "loop · round %u · sampling %s (%zu/%zu)",
                                  round, w->plans[pi].p->kernels[i].name,
                                  total - (size_t)nm + 1, total);
                    else
                        post_text(w, MSG_SAMPLING, "sampling %s (%zu/%zu)",
                                  w->plans[pi].p->kernels[i].name,
                                  total - (size_t)nm + 1, total);
                    runs += (unsigned)do_measure(w, pi, i);
                    job = 1;
                }
        if (job)
            continue;
        /* idle: say so, tell a waiting snapshot, sleep up to a second */
        was_idle = 1;
        pthread_mutex_lock(&w->mu);
        if (!w->settled && !(paused && nm)) {
            w->settled = 1;
            pthread_mutex_unlock(&w->mu);
            if (w->measure && w->loop)
                post_text(w, MSG_SAMPLING, "loop · round %u done · %u measured", round++,
                          runs);
            else if (w->measure)
                post_text(w, MSG_SAMPLING, "done · %u measured", runs);
            else
                post_text(w, MSG_SAMPLING, "static only");
            pthread_mutex_lock(&w->mu);
            pthread_cond_broadcast(&w->done);
        } else if (paused && nm) {
            pthread_mutex_unlock(&w->mu);
            post_text(w, MSG_SAMPLING, "%d to sample", nm);
            pthread_mutex_lock(&w->mu);
        }
        if (!w->quit && !w->rerun) {
            struct timespec dl;
            clock_gettime(CLOCK_REALTIME, &dl);
            dl.tv_sec += 1;
            pthread_cond_timedwait(&w->cv, &w->mu, &dl);
        }
        /* loop mode: one second's rest between rounds, then again */
        if (w->loop && w->measure && !w->paused && w->settled)
            w->rerun = 1;
        if (w->rerun)
            w->settled = 0;
        pthread_mutex_unlock(&w->mu);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - last_poll.tv_sec >= 1) {
            last_poll = now;
            if (poll_files(w)) {
                pthread_mutex_lock(&w->mu);
                w->settled = 0;
                pthread_mutex_unlock(&w->mu);
            }
        }
    }
    return NULL;
}

int worker_start(const tui_args *a, worker **out)
{
    worker *w = xcalloc(1, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    pthread_cond_init(&w->done, NULL);
    w->measure = a->measure;
    w->opt = a->opt;
    static cw_options defaults;
    if (!w->opt) {
        cw_options_default(&defaults);
        w->opt = &defaults;
    }
    w->nplans = a->nplans;
    w->plans = xcalloc(a->nplans, sizeof *w->plans);
    for (size_t i = 0; i < a->nplans; i++)
        w->plans[i].p = &a->plans[i];
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        free(w->plans);
        free(w);
        *out = NULL;
        return -1;
    }
    w->started = 1;
    *out = w;
    return 0;
}

void worker_pause(worker *w, int paused)
{
    pthread_mutex_lock(&w->mu);
    w->paused = paused;
    if (!paused)
        w->settled = 0;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void worker_loop(worker *w, int on)
{
    pthread_mutex_lock(&w->mu);
    w->loop = on;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void worker_rerun(worker *w)
{
    pthread_mutex_lock(&w->mu);
    w->rerun = 1;
    w->settled = 0;
    w->cancel = 1; /* stop the kernel in progress; everything starts over */
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

int worker_settled(worker *w)
{
    pthread_mutex_lock(&w->mu);
    int s = w->settled;
    pthread_mutex_unlock(&w->mu);
    return s;
}

int worker_wait_settled(worker *w, double timeout_s)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += (time_t)timeout_s;
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (!w->settled && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&w->done, &w->mu, &dl);
    int s = w->settled;
    pthread_mutex_unlock(&w->mu);
    return s;
}

void worker_stop(worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    w->cancel = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    for (size_t pi = 0; pi < w->nplans; pi++) {
        wplan *wp = &w->plans[pi];
        for (size_t i = 0; i < wp->nk; i++)
            wkernel_clear(&wp->k[i]);
        free(wp->k);
        if (wp->owned)
            plan_free(&wp->own);
    }
    free(w->plans);
    /* After a hang the driver may still run the kernel: the session
     * leaves it be. */
    session_close(&w->s);
    free(w->gpu_gone);
    for (size_t i = 0; i < w->nwarned; i++)
        free(w->warned[i]);
    for (size_t i = 0; i < w->nq; i++)
        state_msg_free(&w->q[i]);
    free(w->q);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    pthread_cond_destroy(&w->done);
    free(w);
}
