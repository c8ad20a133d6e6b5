/* diff.c - see diff.h. */
#include "diff.h"
#include "alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *diff_status_name(diff_status s)
{
    static const char *const names[] = {"same", "faster", "slower", "noise",
                                        "missing", "added", "inconclusive"};
    return names[s];
}

static const kernel_report *find_kernel(const report *r, const char *name)
{
    for (size_t i = 0; i < r->nkernels; i++)
        if (r->kernels[i].name && strcmp(r->kernels[i].name, name) == 0)
            return &r->kernels[i];
    return NULL;
}

static int same_finding(const finding *a, const finding *b)
{
    return strcmp(a->id, b->id) == 0 && a->line == b->line &&
           ((!a->file && !b->file) || (a->file && b->file && strcmp(a->file, b->file) == 0));
}

static size_t count_missing(const kernel_report *from, const kernel_report *in)
{
    size_t n = 0;
    for (size_t i = 0; i < from->nfindings; i++) {
        size_t j;
        for (j = 0; j < in->nfindings; j++)
            if (same_finding(&from->findings[i], &in->findings[j]))
                break;
        n += j == in->nfindings;
    }
    return n;
}

/* change = new/base - 1; noise is the combined spread relative to base. */
static diff_status judge(double base, double cur, double noise_abs, double threshold,
                         double *change)
{
    if (!(base > 0) || !(cur > 0))
        return DIFF_INCONCLUSIVE;
    *change = cur / base - 1;
    double delta = cur - base;
    if (fabs(*change) <= threshold)
        return fabs(*change) < 1e-9 ? DIFF_SAME : DIFF_NOISE;
    if (fabs(delta) <= 3 * noise_abs)
        return DIFF_NOISE;
    return delta > 0 ? DIFF_SLOWER : DIFF_FASTER;
}

int diff_reports(const report *base, const report *cur, double threshold, diff_result *out)
{
    memset(out, 0, sizeof *out);
    out->kernels = xcalloc(base->nkernels + cur->nkernels + 1, sizeof *out->kernels);
    for (size_t i = 0; i < base->nkernels; i++) {
        const kernel_report *b = &base->kernels[i];
        const kernel_report *c = find_kernel(cur, b->name);
        diff_kernel *d = &out->kernels[out->nkernels++];
        d->name = b->name;
        if (!c) {
            d->predicted = d->measured = DIFF_MISSING;
            out->regressions++;
            continue;
        }
        if (b->prediction.valid && c->prediction.valid)
            d->predicted = judge(b->prediction.time_us, c->prediction.time_us, 0, threshold,
                                 &d->predicted_change);
        else
            d->predicted = DIFF_INCONCLUSIVE;
        const measurement *bm = &b->measurement, *cm = &c->measurement;
        if (bm->valid && cm->valid)
            d->measured = judge(bm->median_us, cm->median_us, bm->mad_us + cm->mad_us,
                                threshold, &d->measured_change);
        else
            d->measured = DIFF_INCONCLUSIVE;
        d->findings_added = count_missing(c, b);
        d->findings_removed = count_missing(b, c);
        size_t be = kernel_report_count(b, SEV_ERROR), ce = kernel_report_count(c, SEV_ERROR);
        d->new_errors = ce > be ? ce - be : 0;
        /* A measured regression counts; so does a measurement that went
         * away (never a silent pass), and new error findings. */
        if (d->measured == DIFF_SLOWER || d->new_errors ||
            (bm->valid && !cm->valid) ||
            (!bm->valid && !cm->valid && d->predicted == DIFF_SLOWER))
            out->regressions++;
    }
    for (size_t i = 0; i < cur->nkernels; i++) {
        const kernel_report *c = &cur->kernels[i];
        if (find_kernel(base, c->name))
            continue;
        diff_kernel *d = &out->kernels[out->nkernels++];
        d->name = c->name;
        d->predicted = d->measured = DIFF_ADDED;
        d->findings_added = c->nfindings;
        d->new_errors = kernel_report_count(c, SEV_ERROR);
        if (d->new_errors)
            out->regressions++;
    }
    return out->regressions ? CW_EXIT_DIVERGENCE : CW_EXIT_OK;
}

static void change_text(char *buf, size_t n, diff_status s, double change)
{
    if (s == DIFF_INCONCLUSIVE || s == DIFF_MISSING || s == DIFF_ADDED)
        snprintf(buf, n, "%s", diff_status_name(s));
    else
        snprintf(buf, n, "%+.1f%% %s", 100 * change, diff_status_name(s));
}

void diff_write_table(const report *base, const report *cur, const diff_result *d, FILE *out)
{
    (void)base;
    (void)cur;
    fprintf(out, "%-24s  %-22s  %-22s  %s\n", "kernel", "predicted", "measured", "findings");
    for (size_t i = 0; i < d->nkernels; i++) {
        const diff_kernel *k = &d->kernels[i];
        char p[64], m[64];
        change_text(p, sizeof p, k->predicted, k->predicted_change);
        change_text(m, sizeof m, k->measured, k->measured_change);
        fprintf(out, "%-24s  %-22s  %-22s  +%zu -%zu%s\n", k->name, p, m, k->findings_added,
                k->findings_removed, k->new_errors ? " (new errors)" : "");
    }
    fprintf(out, "%d regression%s\n", d->regressions, d->regressions == 1 ? "" : "s");
}

char *diff_to_json_text(const report *base, const report *cur, const diff_result *d)
{
    (void)base;
    (void)cur;
    json_t *ks = json_array();
    for (size_t i = 0; i < d->nkernels; i++) {
        const diff_kernel *k = &d->kernels[i];
        json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:I}", "name", k->name, "predicted",
                              diff_status_name(k->predicted), "measured",
                              diff_status_name(k->measured), "findings_added",
                              (json_int_t)k->findings_added, "findings_removed",
                              (json_int_t)k->findings_removed, "new_errors",
                              (json_int_t)k->new_errors);
        if (k->predicted < DIFF_MISSING && k->predicted != DIFF_INCONCLUSIVE)
            json_object_set_new(o, "predicted_change", json_real(k->predicted_change));
        if (k->measured < DIFF_MISSING && k->measured != DIFF_INCONCLUSIVE)
            json_object_set_new(o, "measured_change", json_real(k->measured_change));
        json_array_append_new(ks, o);
    }
    json_t *root = json_pack("{s:i,s:o,s:i}", "schema", 1, "kernels", ks, "regressions",
                             d->regressions);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

void diff_result_free(diff_result *d)
{
    free(d->kernels);
    memset(d, 0, sizeof *d);
}
