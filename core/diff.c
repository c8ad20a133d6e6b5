/* diff.c - see diff.h. */
#include "diff.h"
#include "alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "termtext.h"

const char *diff_status_name(diff_status s)
{
    static const char *const names[] = {"same", "faster", "slower", "noise",
                                        "missing", "added", "inconclusive"};
    return names[s];
}

static const char *finding_status_name(diff_finding_status s)
{
    return s == DIFF_FINDING_ADDED ? "added" : s == DIFF_FINDING_REMOVED ? "removed" : "changed";
}

static int same_text(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static int same_detail(json_t *a, json_t *b)
{
    return (!a && !b) || (a && b && json_equal(a, b));
}

static int same_location(const finding *a, const finding *b)
{
    return same_text(a->id, b->id) && a->line == b->line && same_text(a->file, b->file);
}

static void add_change(diff_kernel *d, const finding *f, diff_finding_status st)
{
    d->findings = xreallocarray(d->findings, d->nfindings + 1, sizeof *d->findings);
    d->findings[d->nfindings++] = (diff_finding){.id = f->id, .file = f->file, .line = f->line,
                                                 .sev = f->sev, .status = st};
    if (st == DIFF_FINDING_ADDED)
        d->findings_added++;
    else if (st == DIFF_FINDING_REMOVED)
        d->findings_removed++;
    else
        d->findings_changed++;
}

/* One-to-one by id and location; a pair whose message, severity or detail
 * differs is changed (its numbers moved), not removed + added. */
static void match_findings(const kernel_report *b, const kernel_report *c, diff_kernel *d)
{
    unsigned char *used = xcalloc(c->nfindings + 1, 1);
    for (size_t i = 0; i < b->nfindings; i++) {
        const finding *fb = &b->findings[i];
        size_t j = 0;
        while (j < c->nfindings && (used[j] || !same_location(fb, &c->findings[j])))
            j++;
        if (j == c->nfindings) {
            add_change(d, fb, DIFF_FINDING_REMOVED);
            continue;
        }
        used[j] = 1;
        const finding *fc = &c->findings[j];
        if (!same_text(fb->message, fc->message) || fb->sev != fc->sev ||
            !same_detail(fb->detail, fc->detail))
            add_change(d, fc, DIFF_FINDING_CHANGED);
    }
    for (size_t j = 0; j < c->nfindings; j++)
        if (!used[j])
            add_change(d, &c->findings[j], DIFF_FINDING_ADDED);
    free(used);
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

static void compare_kernel(const kernel_report *b, const kernel_report *c, double threshold,
                           diff_kernel *d)
{
    if (b->prediction.valid && c->prediction.valid)
        d->predicted = judge(b->prediction.time_us, c->prediction.time_us, 0, threshold,
                             &d->predicted_change);
    else
        d->predicted = DIFF_INCONCLUSIVE;
    const measurement *bm = &b->measurement, *cm = &c->measurement;
    if (bm->valid && cm->valid)
        d->measured = judge(bm->median_us, cm->median_us, bm->mad_us + cm->mad_us, threshold,
                            &d->measured_change);
    else
        d->measured = DIFF_INCONCLUSIVE;
    match_findings(b, c, d);
    size_t be = kernel_report_count(b, SEV_ERROR), ce = kernel_report_count(c, SEV_ERROR);
    d->new_errors = ce > be ? ce - be : 0;
    /* never a silent pass: a slower measurement, a measurement that went
     * away, new error findings, or (nothing measured) a slower prediction */
    if (d->measured == DIFF_SLOWER)
        snprintf(d->reason, sizeof d->reason, "measured %+.1f%%", 100 * d->measured_change);
    else if (bm->valid && !cm->valid)
        snprintf(d->reason, sizeof d->reason, "measured in BASE, not in NEW%s%s",
                 cm->error ? ": " : "", cm->error ? cm->error : "");
    else if (d->new_errors)
        snprintf(d->reason, sizeof d->reason, "%zu new error finding%s", d->new_errors,
                 d->new_errors == 1 ? "" : "s");
    else if (!bm->valid && !cm->valid && d->predicted == DIFF_SLOWER)
        snprintf(d->reason, sizeof d->reason, "predicted %+.1f%%", 100 * d->predicted_change);
    d->regressed = d->reason[0] != 0;
}

static diff_kernel *next_kernel(diff_result *out, const kernel_report *k, uint32_t occ,
                                int use_plan)
{
    diff_kernel *d = &out->kernels[out->nkernels++];
    d->name = k->name;
    d->plan = use_plan ? k->plan : NULL;
    d->occurrence = occ;
    return d;
}

static void device_warning(const report *base, const report *cur, diff_result *out)
{
    const report_device *a = &base->device, *b = &cur->device;
    int differ = a->uuid && b->uuid ? strcmp(a->uuid, b->uuid) != 0
                                    : !same_text(a->name, b->name);
    if (!differ && same_text(a->driver, b->driver))
        return;
    snprintf(out->warning, sizeof out->warning,
             "BASE comes from %s%s%s, NEW from %s%s%s: measured changes compare %s, not only "
             "the kernels", a->name ? a->name : "an unknown device", a->driver ? ", " : "",
             a->driver ? a->driver : "", b->name ? b->name : "an unknown device",
             b->driver ? ", " : "", b->driver ? b->driver : "",
             differ ? "devices" : "drivers");
}

/* The same plan under another path (a baseline written in CI from
 * /builds/x/plans/a.json, a run here from plans/a.json): each plan of one
 * report that the other lacks is paired with the other's unpaired plan
 * sharing the longest tail of path components, when that one is unique. */
typedef struct plan_map {
    const char **from, **to;
    size_t n;
} plan_map;

static size_t distinct_plans(const report *r, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        const char *p = r->kernels[i].plan;
        size_t j = 0;
        while (p && j < n && strcmp(out[j], p))
            j++;
        if (p && j == n)
            out[n++] = p;
    }
    return n;
}

static int in_list(const char *p, const char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], p))
            return 1;
    return 0;
}

/* How many trailing path components a and b share: "x/plans/a.json" and
 * "/ci/plans/a.json" share 2. */
static size_t common_tail(const char *a, const char *b)
{
    const char *ea = a + strlen(a), *eb = b + strlen(b);
    size_t parts = 0;
    for (;;) {
        const char *sa = ea, *sb = eb;
        while (sa > a && sa[-1] != '/')
            sa--;
        while (sb > b && sb[-1] != '/')
            sb--;
        size_t la = (size_t)(ea - sa), lb = (size_t)(eb - sb);
        if (la == 0 || la != lb || memcmp(sa, sb, la))
            break;
        parts++;
        if (sa == a || sb == b)
            break;
        ea = sa - 1;
        eb = sb - 1;
    }
    return parts;
}

static void build_plan_map(const report *base, const report *cur, plan_map *m)
{
    const char **bp = xcalloc(base->nkernels + 1, sizeof *bp);
    const char **cp = xcalloc(cur->nkernels + 1, sizeof *cp);
    size_t nb = distinct_plans(base, bp), nc = distinct_plans(cur, cp);
    m->from = xcalloc(nb + 1, sizeof *m->from);
    m->to = xcalloc(nb + 1, sizeof *m->to);
    m->n = 0;
    for (size_t i = 0; i < nb; i++) {
        if (in_list(bp[i], cp, nc))
            continue;
        size_t best = 0, nbest = 0, at = 0;
        for (size_t j = 0; j < nc; j++) {
            if (in_list(cp[j], bp, nb))
                continue;
            size_t t = common_tail(bp[i], cp[j]);
            if (t > best)
                best = t, nbest = 1, at = j;
            else if (t == best)
                nbest++;
        }
        if (best >= 1 && nbest == 1) {
            m->from[m->n] = bp[i];
            m->to[m->n++] = cp[at];
        }
    }
    free(bp);
    free(cp);
}

/* base plan -> cur plan (forward), or cur -> base */
static const char *map_plan(const plan_map *m, const char *p, int forward)
{
    for (size_t i = 0; p && i < m->n; i++)
        if (!strcmp(forward ? m->from[i] : m->to[i], p))
            return forward ? m->to[i] : m->from[i];
    return p;
}

static int several_plans(const report *r)
{
    for (size_t i = 1; i < r->nkernels; i++)
        if (!same_text(r->kernels[i].plan, r->kernels[0].plan))
            return 1;
    return 0;
}

int diff_reports(const report *base, const report *cur, double threshold, diff_result *out)
{
    memset(out, 0, sizeof *out);
    out->kernels = xcalloc(base->nkernels + cur->nkernels + 1, sizeof *out->kernels);
    /* plans tell kernels apart only when both reports carry them */
    int use_plan = identity_report_has_plans(base) && identity_report_has_plans(cur);
    out->several_plans = use_plan && (several_plans(base) || several_plans(cur));
    identity_index bi, ci;
    identity_index_build(&bi, base, use_plan);
    identity_index_build(&ci, cur, use_plan);
    plan_map pm = {0};
    if (use_plan)
        build_plan_map(base, cur, &pm);
    for (size_t i = 0; i < base->nkernels; i++) {
        const kernel_report *b = &base->kernels[i];
        long j = identity_index_find(&ci, map_plan(&pm, b->plan, 1), b->name, bi.occ[i]);
        diff_kernel *d = next_kernel(out, b, bi.occ[i], use_plan);
        if (j < 0) {
            d->predicted = d->measured = DIFF_MISSING;
            snprintf(d->reason, sizeof d->reason, "missing from NEW");
            d->regressed = 1;
        } else {
            compare_kernel(b, &cur->kernels[j], threshold, d);
        }
        out->regressions += d->regressed;
    }
    for (size_t j = 0; j < cur->nkernels; j++) {
        const kernel_report *c = &cur->kernels[j];
        if (identity_index_find(&bi, map_plan(&pm, c->plan, 0), c->name, ci.occ[j]) >= 0)
            continue;
        diff_kernel *d = next_kernel(out, c, ci.occ[j], use_plan);
        d->predicted = d->measured = DIFF_ADDED;
        for (size_t f = 0; f < c->nfindings; f++)
            add_change(d, &c->findings[f], DIFF_FINDING_ADDED);
        d->new_errors = kernel_report_count(c, SEV_ERROR);
        if (d->new_errors) {
            snprintf(d->reason, sizeof d->reason, "added with %zu error finding%s",
                     d->new_errors, d->new_errors == 1 ? "" : "s");
            d->regressed = 1;
            out->regressions++;
        }
    }
    identity_index_free(&bi);
    identity_index_free(&ci);
    free(pm.from);
    free(pm.to);
    device_warning(base, cur, out);
    return out->regressions ? CW_STATUS_DIVERGENCE : CW_STATUS_OK;
}

static void change_text(char *buf, size_t n, diff_status s, double change)
{
    if (s == DIFF_INCONCLUSIVE || s == DIFF_MISSING || s == DIFF_ADDED)
        snprintf(buf, n, "%s", diff_status_name(s));
    else
        snprintf(buf, n, "%+.1f%% %s", 100 * change, diff_status_name(s));
}

/* One line: a newline in a name from a report would forge a row. */
static void kernel_label(const diff_result *d, const diff_kernel *k, char *buf, size_t n)
{
    identity_text(d->several_plans ? k->plan : NULL, k->name, k->occurrence, buf, n);
    char *one = cw_term_line(buf);
    snprintf(buf, n, "%s", one);
    free(one);
}

void diff_write_table(const report *base, const report *cur, const diff_result *d, FILE *out)
{
    (void)base;
    (void)cur;
    if (d->warning[0]) {
        fputs("warning: ", out);
        cw_term_fputs(d->warning, out);
        fputc('\n', out);
    }
    fprintf(out, "%-24s  %-22s  %-22s  %-14s  %s\n", "kernel", "predicted", "measured",
            "findings", "verdict");
    for (size_t i = 0; i < d->nkernels; i++) {
        const diff_kernel *k = &d->kernels[i];
        char p[64], m[64], f[64], label[600];
        change_text(p, sizeof p, k->predicted, k->predicted_change);
        change_text(m, sizeof m, k->measured, k->measured_change);
        snprintf(f, sizeof f, "+%zu -%zu ~%zu", k->findings_added, k->findings_removed,
                 k->findings_changed);
        kernel_label(d, k, label, sizeof label);
        fprintf(out, "%-24s  %-22s  %-22s  %-14s  %s%s\n", label, p, m, f,
                k->regressed ? "REGRESSED: " : "ok", k->reason);
    }
    fprintf(out, "%d regression%s", d->regressions, d->regressions == 1 ? "" : "s");
    const char *sep = ": ";
    for (size_t i = 0; i < d->nkernels; i++) {
        const diff_kernel *k = &d->kernels[i];
        if (!k->regressed)
            continue;
        char label[600];
        kernel_label(d, k, label, sizeof label);
        fprintf(out, "%s%s (%s)", sep, label, k->reason);
        sep = ", ";
    }
    fprintf(out, "\n(findings: +added -removed ~changed; see man clockwork, DIFF)\n");
}

static json_t *kernel_json(const diff_kernel *k)
{
    json_t *o = json_pack("{s:s,s:o,s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:b}", "name", k->name,
                          "plan", k->plan ? json_string(k->plan) : json_null(), "occurrence",
                          (json_int_t)k->occurrence, "predicted",
                          diff_status_name(k->predicted), "measured",
                          diff_status_name(k->measured), "findings_added",
                          (json_int_t)k->findings_added, "findings_removed",
                          (json_int_t)k->findings_removed, "findings_changed",
                          (json_int_t)k->findings_changed, "new_errors",
                          (json_int_t)k->new_errors, "regressed", k->regressed);
    if (k->predicted < DIFF_MISSING && k->predicted != DIFF_INCONCLUSIVE)
        json_object_set_new(o, "predicted_change", json_real(k->predicted_change));
    if (k->measured < DIFF_MISSING && k->measured != DIFF_INCONCLUSIVE)
        json_object_set_new(o, "measured_change", json_real(k->measured_change));
    if (k->regressed)
        json_object_set_new(o, "reason", json_string(k->reason));
    json_t *fs = json_array();
    for (size_t i = 0; i < k->nfindings; i++) {
        const diff_finding *f = &k->findings[i];
        json_array_append_new(fs, json_pack("{s:s,s:s,s:s,s:o,s:o}", "id", f->id ? f->id : "",
                                            "status", finding_status_name(f->status),
                                            "severity", severity_name(f->sev), "file",
                                            f->file ? json_string(f->file) : json_null(),
                                            "line",
                                            f->line > 0 ? json_integer(f->line) : json_null()));
    }
    json_object_set_new(o, "findings", fs);
    return o;
}

char *diff_to_json_text(const report *base, const report *cur, const diff_result *d)
{
    (void)base;
    (void)cur;
    json_t *ks = json_array(), *regressed = json_array();
    for (size_t i = 0; i < d->nkernels; i++) {
        const diff_kernel *k = &d->kernels[i];
        json_array_append_new(ks, kernel_json(k));
        if (k->regressed)
            json_array_append_new(regressed,
                                  json_pack("{s:s,s:o,s:I,s:s}", "name", k->name, "plan",
                                            k->plan ? json_string(k->plan) : json_null(),
                                            "occurrence", (json_int_t)k->occurrence, "reason",
                                            k->reason));
    }
    json_t *warnings = json_array();
    if (d->warning[0])
        json_array_append_new(warnings, json_string(d->warning));
    json_t *root = json_pack("{s:i,s:o,s:i,s:o,s:o}", "schema", 1, "kernels", ks, "regressions",
                             d->regressions, "regressed", regressed, "warnings", warnings);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

void diff_result_free(diff_result *d)
{
    for (size_t i = 0; i < d->nkernels; i++)
        free(d->kernels[i].findings);
    free(d->kernels);
    memset(d, 0, sizeof *d);
}
