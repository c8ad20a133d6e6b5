/* load.c - CPU time of the machine around a measurement (see load.h). */
#include "load.h"

#include "verdict_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static const char *path_of(const char *env, const char *dflt)
{
    const char *v = getenv(env);
    return v && *v ? v : dflt;
}

/* The aggregate "cpu" line: user nice system idle iowait irq softirq
 * steal (guest time is already inside user). */
static int read_stat(unsigned long long *busy, unsigned long long *steal)
{
    FILE *f = fopen(path_of("CW_LOAD_PROC_STAT", "/proc/stat"), "r");
    if (!f)
        return -1;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n < 4)
        return -1;
    *busy = v[0] + v[1] + v[2] + v[5] + v[6];
    *steal = n >= 8 ? v[7] : 0;
    return 0;
}

static double self_cpu_s(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

/* The first window of the process: a kernel measured in less than
 * MIN_WINDOW_S is judged by the load since then (ticks of 1/HZ s over a
 * few milliseconds say nothing). */
#define MIN_WINDOW_S 0.25
static load_window first;

static double now_s(void);
static int env_on(const char *name);
static int read_stat(unsigned long long *busy, unsigned long long *steal);
static double self_cpu_s(void);

/* The process's start is the first window's start, so that even the
 * first kernel of a run, if quick, has a window of some length (device
 * opening and compiling are the process's own time: not counted as
 * others'). */
__attribute__((constructor)) static void load_at_start(void)
{
    if (env_on("CW_LOAD_IGNORE"))
        return;
    first.ok = read_stat(&first.busy, &first.steal) == 0;
    first.t = now_s();
    first.self_s = self_cpu_s();
}

void load_begin(load_window *w)
{
    memset(w, 0, sizeof *w);
    if (env_on("CW_LOAD_IGNORE"))
        return;
    w->ok = read_stat(&w->busy, &w->steal) == 0;
    w->t = now_s();
    w->self_s = self_cpu_s();
    if (w->ok && !first.ok)
        first = *w;
}

void load_end(const load_window *w, machine_load *out)
{
    memset(out, 0, sizeof *out);
    unsigned long long busy, steal;
    if (!w->ok || read_stat(&busy, &steal) != 0)
        return;
    double wall = now_s() - w->t;
    if (wall < MIN_WINDOW_S && first.ok && first.t < w->t) {
        w = &first;
        wall = now_s() - w->t;
    }
    long hz = sysconf(_SC_CLK_TCK);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    /* /proc/stat ticks every 1/HZ s: a window of a few ticks says little */
    if (hz <= 0 || cpus <= 0 || wall < 0.05)
        return;
    double self = self_cpu_s() - w->self_s;
    double all = (double)(busy - w->busy) / (double)hz;
    out->valid = 1;
    out->cpus = (unsigned)cpus;
    out->wall_s = wall;
    out->self_cpus = self / wall;
    out->others_cpus = all > self ? (all - self) / wall : 0;
    out->steal_cpus = (double)(steal - w->steal) / (double)hz / wall;
    if (out->others_cpus > (double)cpus)
        out->others_cpus = (double)cpus;
    FILE *f = fopen(path_of("CW_LOAD_PROC_LOADAVG", "/proc/loadavg"), "r");
    if (f) {
        if (fscanf(f, "%lf", &out->loadavg1) != 1)
            out->loadavg1 = 0;
        fclose(f);
    }
    out->busy = machine_load_busy(out);
}
