/* merge.c - see merge.h. */
#include "merge.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

void merge_device_key(const report_provenance *p, const report_device *d, char *buf, size_t n)
{
    const char *where = p->node ? p->node : p->host ? p->host : "?";
    const char *dev = d->uuid ? d->uuid : d->name ? d->name : "?";
    snprintf(buf, n, "%s/%s", where, dev);
}

/* Reports of one launch: same set, shard count and job. */
typedef struct set_group {
    size_t first;     /* the report that opened the group */
    size_t *members;
    size_t nmembers;
} set_group;

static int same_set(const report *a, const report *b)
{
    const report_provenance *p = &a->provenance, *q = &b->provenance;
    if (!p->valid || !q->valid || !p->set_id || !q->set_id)
        return 0; /* without provenance a report is a set of its own */
    return same_str(p->set_id, q->set_id) && p->shard_count == q->shard_count &&
           same_str(p->job, q->job);
}

static void set_name(const report *r, char *buf, size_t n)
{
    const report_provenance *p = &r->provenance;
    snprintf(buf, n, "set %s%s%s", p->set_id ? p->set_id : "?", p->job ? ", job " : "",
             p->job ? p->job : "");
}

/* Every shard of a set of N > 1 exactly once, holding the set's kernels. */
static int check_sharded(const report *in, const char *const *files, const set_group *g,
                         cw_error *err)
{
    const report *r0 = &in[g->first];
    uint32_t n = r0->provenance.shard_count;
    char set[128];
    set_name(r0, set, sizeof set);
    long *at = xmalloc(n * sizeof *at);
    for (uint32_t i = 0; i < n; i++)
        at[i] = -1;
    int rc = 0;
    size_t kernels = 0;
    for (size_t m = 0; m < g->nmembers && !rc; m++) {
        size_t k = g->members[m];
        uint32_t idx = in[k].provenance.shard_index;
        kernels += in[k].nkernels;
        if (at[idx] >= 0) {
            cw_error_set(err, files[k], 0, 0,
                         "shard %u/%u of %s is given twice: %s and %s hold the same shard",
                         idx, n, set, files[at[idx]], files[k]);
            rc = CW_STATUS_INPUT;
        }
        at[idx] = (long)k;
    }
    if (!rc) {
        char missing[600] = "";
        uint32_t nmissing = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (at[i] >= 0)
                continue;
            size_t len = strlen(missing);
            if (len < sizeof missing - 16)
                snprintf(missing + len, sizeof missing - len, "%s%u/%u", nmissing ? ", " : "",
                         i, n);
            nmissing++;
        }
        if (nmissing) {
            cw_error_set(err, NULL, 0, 0,
                         "%s is incomplete: shard%s %s %s missing (%zu of %u given); "
                         "merge every report the launch wrote", set, nmissing == 1 ? "" : "s",
                         missing, nmissing == 1 ? "is" : "are", g->nmembers, n);
            rc = CW_STATUS_INPUT;
        }
    }
    if (!rc && r0->provenance.kernels_total && kernels != r0->provenance.kernels_total) {
        cw_error_set(err, NULL, 0, 0,
                     "%s: its shards hold %zu kernels but the set has %llu; a shard report "
                     "was cut short or edited", set, kernels,
                     (unsigned long long)r0->provenance.kernels_total);
        rc = CW_STATUS_INPUT;
    }
    free(at);
    return rc;
}

/* Complete reports (0/1) of one set: one per device (the fleet case). */
static int check_complete(const report *in, const char *const *files, const set_group *g,
                          cw_error *err)
{
    for (size_t a = 0; a < g->nmembers; a++)
        for (size_t b = a + 1; b < g->nmembers; b++) {
            const report *ra = &in[g->members[a]], *rb = &in[g->members[b]];
            char ka[512], kb[512];
            merge_device_key(&ra->provenance, &ra->device, ka, sizeof ka);
            merge_device_key(&rb->provenance, &rb->device, kb, sizeof kb);
            if (strcmp(ka, kb) == 0) {
                cw_error_set(err, files[g->members[b]], 0, 0,
                             "%s and %s are both the whole set from one device (%s): a "
                             "report is duplicated (use 'clockwork diff' to compare runs)",
                             files[g->members[a]], files[g->members[b]], ka);
                return CW_STATUS_INPUT;
            }
        }
    return 0;
}

static int check_inputs(const report *in, const char *const *files, size_t n, cw_error *err)
{
    if (n == 0) {
        cw_error_set(err, NULL, 0, 0, "merge needs at least one report");
        return CW_STATUS_INPUT;
    }
    for (size_t i = 0; i < n; i++) {
        if (!same_str(in[i].tool_version, in[0].tool_version)) {
            cw_error_set(err, files[i], 0, 0,
                         "written by clockwork %s, but %s by clockwork %s: merge reports of "
                         "one tool version (shards of other versions may split kernels "
                         "differently)", in[i].tool_version ? in[i].tool_version : "?",
                         files[0], in[0].tool_version ? in[0].tool_version : "?");
            return CW_STATUS_INPUT;
        }
        if (in[i].nsources) {
            cw_error_set(err, files[i], 0, 0,
                         "is already a merged report; merge the reports it was made from");
            return CW_STATUS_INPUT;
        }
    }
    return 0;
}

static size_t build_groups(const report *in, size_t n, set_group *groups, size_t *member_of)
{
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        size_t g = 0;
        while (g < ng && !same_set(&in[groups[g].first], &in[i]))
            g++;
        if (g == ng) {
            groups[ng].first = i;
            groups[ng].members = xcalloc(n, sizeof *groups[ng].members);
            ng++;
        }
        groups[g].members[groups[g].nmembers++] = i;
        member_of[i] = g;
    }
    return ng;
}

/* ---- the merged report ---- */

typedef struct kref {
    size_t group, report, kernel;
    long plan_pos; /* position of the kernel's plan in the set's plans */
    long plan_index;
} kref;

static int cmp_kref(const void *pa, const void *pb)
{
    const kref *a = pa, *b = pb;
#define CMP(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP(group);
    CMP(plan_pos);
    CMP(plan_index);
    CMP(report);
    CMP(kernel);
#undef CMP
    return 0;
}

static long plan_position(const report_provenance *p, const char *plan)
{
    for (size_t i = 0; plan && i < p->nplans; i++)
        if (!strcmp(p->plans[i], plan))
            return (long)i;
    return -1;
}

static void merged_device(const report *in, size_t n, report *out)
{
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        char k[512], kj[512];
        merge_device_key(&in[i].provenance, &in[i].device, k, sizeof k);
        size_t j = 0;
        for (; j < i; j++) {
            merge_device_key(&in[j].provenance, &in[j].device, kj, sizeof kj);
            if (!strcmp(k, kj))
                break;
        }
        distinct += j == i;
    }
    int same_device = 1;
    for (size_t i = 1; i < n; i++)
        same_device &= same_str(in[i].device.name, in[0].device.name) &&
                       same_str(in[i].device.uuid, in[0].device.uuid);
    if (same_device) {
        report_device_copy(&out->device, &in[0].device);
        free(out->device.selected_by); /* rank 0's choice; each source keeps its own */
        out->device.selected_by = NULL;
        return;
    }
    char name[64];
    snprintf(name, sizeof name, "%zu devices (see sources)", distinct);
    out->device.name = cw_strdup(name);
    out->device.profile = cw_strdup(in[0].device.profile);
}

static void merged_provenance(const report *in, size_t n, const set_group *groups, size_t ng,
                              report *out)
{
    report_provenance *p = &out->provenance;
    p->valid = 1;
    p->rank = -1;
    p->shard_index = 0;
    p->shard_count = 1;
    p->shard_source = cw_strdup("merge");
    int one_job = 1;
    for (size_t i = 1; i < n; i++)
        one_job &= same_str(in[i].provenance.job, in[0].provenance.job);
    p->job = one_job ? cw_strdup(in[0].provenance.job) : NULL;
    p->host = NULL;
    if (ng == 1)
        p->set_id = cw_strdup(in[groups[0].first].provenance.set_id);
    for (size_t g = 0; g < ng; g++) {
        const report_provenance *q = &in[groups[g].first].provenance;
        p->kernels_total += q->kernels_total;
        for (size_t j = 0; j < q->nplans; j++) {
            size_t have = 0;
            while (have < p->nplans && strcmp(p->plans[have], q->plans[j]))
                have++;
            if (have < p->nplans)
                continue;
            char **np = xrealloc(p->plans, (p->nplans + 1) * sizeof *np);
            p->plans = np;
            p->plans[p->nplans++] = cw_strdup(q->plans[j]);
        }
    }
}

static void merged_kernels(const report *in, size_t n, const size_t *member_of, report *out)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += in[i].nkernels;
    kref *refs = xcalloc(total + 1, sizeof *refs);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < in[i].nkernels; k++) {
            const kernel_report *kr = &in[i].kernels[k];
            refs[m++] = (kref){.group = member_of[i], .report = i, .kernel = k,
                               .plan_pos = plan_position(&in[i].provenance, kr->plan),
                               .plan_index = kr->plan_index};
        }
    qsort(refs, total, sizeof *refs, cmp_kref);
    out->kernels = xcalloc(total + 1, sizeof *out->kernels);
    for (size_t i = 0; i < total; i++) {
        kernel_report_copy(&out->kernels[i], &in[refs[i].report].kernels[refs[i].kernel]);
        out->kernels[i].source = (long)refs[i].report;
    }
    out->nkernels = total;
    free(refs);
}

int merge_reports(const report *in, const char *const *files, size_t n, report *out,
                  cw_error *err)
{
    report_init(out);
    int rc = check_inputs(in, files, n, err);
    if (rc) {
        report_free(out); /* a refused merge leaves out owning nothing */
        return rc;
    }
    set_group *groups = xcalloc(n, sizeof *groups);
    size_t *member_of = xcalloc(n, sizeof *member_of);
    size_t ng = build_groups(in, n, groups, member_of);
    for (size_t g = 0; g < ng && !rc; g++) {
        const report *r0 = &in[groups[g].first];
        if (r0->provenance.valid && r0->provenance.shard_count > 1)
            rc = check_sharded(in, files, &groups[g], err);
        else
            rc = check_complete(in, files, &groups[g], err);
    }
    if (!rc) {
        out->sources = xcalloc(n, sizeof *out->sources);
        for (size_t i = 0; i < n; i++) {
            report_source *s = &out->sources[i];
            s->file = cw_strdup(files[i]);
            report_provenance_copy(&s->prov, &in[i].provenance);
            report_device_copy(&s->device, &in[i].device);
        }
        out->nsources = n;
        merged_device(in, n, out);
        merged_provenance(in, n, groups, ng, out);
        merged_kernels(in, n, member_of, out);
    }
    for (size_t g = 0; g < ng; g++)
        free(groups[g].members);
    free(groups);
    free(member_of);
    if (rc)
        report_free(out);
    return rc;
}
