/* progress.c - ==PROF== lines on a terminal's stderr (see progress.h). */
#include "progress.h"
#include "units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "termtext.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void progress_open(progress *p, size_t total, int quiet)
{
    memset(p, 0, sizeof *p);
    p->on = !quiet && isatty(STDERR_FILENO);
    p->total = total;
}

void progress_kernel(progress *p, size_t index, const char *name, int measured)
{
    if (!p->on)
        return;
    p->index = index;
    p->samples = 0;
    p->nrecent = 0;
    p->last_draw_s = 0;
    /* the name comes from the plan: escaped before it reaches the terminal */
    char *esc = cw_term_line(name ? name : "?");
    snprintf(p->name, sizeof p->name, "%s", esc);
    free(esc);
    /* nothing is drawn before the first sample: the static stage's
     * warnings go to stderr too and must not land inside a line */
    (void)measured;
}

void progress_sample(void *user, double sample_us)
{
    progress *p = user;
    if (!p || !p->on)
        return;
    p->samples++;
    p->recent[p->nrecent++ % 64] = sample_us;
    double t = now_s();
    if (t - p->last_draw_s < 0.1)
        return;
    p->last_draw_s = t;
    unsigned n = p->nrecent < 64 ? p->nrecent : 64;
    double s[64];
    memcpy(s, p->recent, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    char med[32];
    units_time_us(med, sizeof med, s[n / 2]);
    fprintf(stderr, "\r==PROF== [%zu/%zu] %s: %u sample%s taken, median so far %s\033[K",
            p->index, p->total, p->name, p->samples, p->samples == 1 ? "" : "s", med);
    fflush(stderr);
}

void progress_done(progress *p, const kernel_report *kr)
{
    if (!p->on)
        return;
    const measurement *m = &kr->measurement;
    char what[160];
    if (m->valid) {
        char med[32];
        units_time_us(med, sizeof med, m->median_us);
        snprintf(what, sizeof what, "%u samples, median %s", m->samples, med);
    } else if (m->error) {
        snprintf(what, sizeof what, "run failed");
    } else if (kr->divergence.valid && kr->divergence.status == DIV_UNKNOWN &&
               kr->divergence.explanation &&
               strncmp(kr->divergence.explanation, "not run", 7) == 0) {
        snprintf(what, sizeof what, "not run");
    } else {
        snprintf(what, sizeof what, "analysed");
    }
    fprintf(stderr, "\r==PROF== [%zu/%zu] %s: %s%s%s\033[K\n", p->index, p->total, p->name,
            what, kr->divergence.valid && m->valid ? " · " : "",
            kr->divergence.valid && m->valid ? div_status_name(kr->divergence.status) : "");
    fflush(stderr);
}
