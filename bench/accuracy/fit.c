/* fit.c - refit lavapipe's cost constants (verifier/model.c, CPU_*) from
 * accuracy-suite measurements.  Development tool, not part of clockwork.
 *
 *   sh bench/accuracy/fit.sh [BUILD]     (runs the suite first if needed)
 *
 * For every kernel of the plan whose predicted bound is issue or barrier
 * with the current constants (the terms being fitted), it takes the
 * evaluator's counts (instructions, lane accesses per space, workgroups,
 * barrier invocations) and the lowest measured median found in the CSV
 * reports, and fits non-negative weights w to
 *     time = launch + imbalance / units x sum(w_i x feature_i)
 * by coordinate descent on sum(log(predicted / measured)^2).  It prints the
 * weights in the units of the CPU_* constants, each kernel's error, and the
 * leave-one-out median error (each kernel predicted from a fit without it).
 * Only the kernels the environment variable FIT_TRAIN names (a comma list:
 * fit.sh passes the training half of bench/accuracy/split.json) are
 * fitted; the others are predicted and reported apart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

#define NF 5
static const char *const fnames[NF] = {
    "CPU_CYCLES_PER_VEC_INSTR", "CPU_CYCLES_PER_STORAGE",
    "CPU_CYCLES_PER_SHARED", "CPU_NS_PER_GROUP", "CPU_NS_PER_BARRIER_LANE"};

typedef struct sample {
    char name[64];
    double f[NF];    /* per feature: µs per unit weight, already x imb/units */
    double measured; /* µs */
    int use;
} sample;

static double launch_us;

static double predict(const double *w, const sample *s)
{
    double t = launch_us;
    for (int i = 0; i < NF; i++)
        t += w[i] * s->f[i];
    return t;
}

static double loss(const double *w, const sample *s, int n, int skip)
{
    double l = 0;
    for (int i = 0; i < n; i++)
        if (s[i].use && i != skip) {
            double r = log(predict(w, &s[i]) / s[i].measured);
            l += r * r;
        }
    return l;
}

static void fit(double *w, const sample *s, int n, int skip)
{
    double step[NF];
    for (int i = 0; i < NF; i++)
        step[i] = w[i] > 0 ? w[i] / 2 : 0.5;
    for (int it = 0; it < 3000; it++) {
        for (int i = 0; i < NF; i++) {
            double best = loss(w, s, n, skip), keep = w[i];
            int moved = 0;
            for (int d = -1; d <= 1; d += 2) {
                w[i] = fmax(0, keep + d * step[i]);
                double l = loss(w, s, n, skip);
                if (l < best) {
                    best = l;
                    keep = w[i];
                    moved = 1;
                }
            }
            w[i] = keep;
            if (!moved)
                step[i] *= 0.7;
        }
    }
}

/* Lowest measured_median_us per kernel over the CSV reports. */
static double csv_measured(int nfiles, char **files, const char *kernel)
{
    double best = -1;
    for (int f = 0; f < nfiles; f++) {
        FILE *in = fopen(files[f], "r");
        if (!in)
            continue;
        char line[4096];
        int col = -1;
        while (fgets(line, sizeof line, in)) {
            char *fields[32];
            int nfld = 0;
            for (char *p = strtok(line, ",\n"); p && nfld < 32;
                 p = strtok(NULL, ",\n"))
                fields[nfld++] = p;
            if (col < 0) {
                for (int i = 0; i < nfld; i++)
                    if (strcmp(fields[i], "measured_median_us") == 0)
                        col = i;
                continue;
            }
            /* empty fields collapse under strtok: only trust full rows */
            if (nfld < 19 || strcmp(fields[0], kernel) != 0)
                continue;
            double v = atof(fields[col]);
            if (v > 0 && (best < 0 || v < best))
                best = v;
        }
        fclose(in);
    }
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 1 when FIT_TRAIN is unset or names the kernel */
static int in_train(const char *name)
{
    const char *t = getenv("FIT_TRAIN");
    if (!t || !*t)
        return 1;
    size_t n = strlen(name);
    for (const char *p = t; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && !strncmp(p, name, n))
            return 1;
        p += l + (e ? 1 : 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fit PLAN REPORT.csv...\n");
        return 2;
    }
    plan pl;
    cw_error err;
    if (plan_load(argv[1], &pl, &err) != 0) {
        char buf[1600];
        cw_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s\n", buf);
        return 2;
    }
    device_profile prof;
    profile_builtin("lavapipe", &prof);
    launch_us = prof.launch_us;
    double cyc_us = prof.clock_ghz * 1e3; /* cycles per µs, one core */
    double lanes = prof.limits.subgroup_size;

    sample *s = calloc(pl.nkernels, sizeof *s);
    int n = 0;
    for (size_t i = 0; i < pl.nkernels; i++) {
        plan_kernel *k = &pl.kernels[i];
        shader_module sm;
        if (shader_load(k->shader_path, &sm, &err) != 0)
            continue;
        kernel_report kr;
        memset(&kr, 0, sizeof kr);
        verifier_result vr;
        memset(&vr, 0, sizeof vr);
        verifier_analyze(k, &sm, &prof, &kr, &vr);
        model_predict(&vr.counts, &vr.refl, k, &prof, &kr.prediction, &kr);
        const kernel_counts *c = &vr.counts;
        double st = 0, sh = 0;
        for (size_t a = 0; a < c->naccesses; a++) {
            const access_summary *x = &c->accesses[a];
            double comp = ceil((x->bytes ? x->bytes : 4) / 4.0) * x->count;
            if (x->space == SPACE_SHARED)
                sh += comp;
            else if (x->space == SPACE_STORAGE)
                st += comp;
        }
        double wg = (double)vr.refl.local_size[0] * vr.refl.local_size[1] *
                    vr.refl.local_size[2];
        double g = (double)c->workgroups;
        double imb = g > 0 ? ceil(g / prof.units) * prof.units / g : 1;
        double scale = imb / prof.units;
        sample *x = &s[n];
        snprintf(x->name, sizeof x->name, "%s", k->name);
        x->f[0] = c->instructions / lanes / cyc_us * scale;
        x->f[1] = st / cyc_us * scale;
        x->f[2] = sh / cyc_us * scale;
        x->f[3] = g * 1e-3 * scale;
        x->f[4] = c->barriers * wg * 1e-3 * scale;
        x->measured = csv_measured(argc - 2, argv + 2, k->name);
        const char *b = kr.prediction.bound ? kr.prediction.bound : "";
        x->use = x->measured > 0 && c->conf == CONF_EXACT && in_train(k->name) &&
                 (strcmp(b, "issue") == 0 || strcmp(b, "barrier") == 0) &&
                 c->flops_fp16 == 0;
        n++;
        kernel_report_free(&kr);
        verifier_result_free(&vr);
        shader_free(&sm);
    }

    double w[NF] = {1, 1, 1, 300, 2};
    fit(w, s, n, -1);
    printf("fitted on the kernels marked *, %s, launch %.1f µs:\n",
           prof.name, launch_us);
    for (int i = 0; i < NF; i++)
        printf("  %-26s %.3g\n", fnames[i], w[i]);
    double errs[256], loo[256];
    int ne = 0, nl = 0;
    for (int i = 0; i < n; i++) {
        if (s[i].measured <= 0)
            continue;
        double e = (predict(w, &s[i]) - s[i].measured) / s[i].measured;
        printf("%c %-18s predicted %10.1f µs measured %10.1f µs %+7.1f%%\n",
               s[i].use ? '*' : ' ', s[i].name, predict(w, &s[i]),
               s[i].measured, e * 100);
        if (!s[i].use || ne >= 256)
            continue;
        errs[ne++] = fabs(e);
        double wl[NF];
        memcpy(wl, w, sizeof wl);
        fit(wl, s, n, i);
        loo[nl++] = fabs(predict(wl, &s[i]) - s[i].measured) / s[i].measured;
    }
    if (ne) {
        qsort(errs, ne, sizeof *errs, cmp_double);
        qsort(loo, nl, sizeof *loo, cmp_double);
        printf("%d kernels fitted: median error %.1f%%, leave-one-out median "
               "%.1f%%\n",
               ne, errs[ne / 2] * 100, loo[nl / 2] * 100);
    }
    free(s);
    plan_free(&pl);
    return 0;
}
