/* report.c - building, freeing and formatting reports (see report.h).
 * JSON I/O lives in report_json.c, text output (table/csv) in
 * report_text.c, SARIF in report_sarif.c. */
#include "report.h"
#include "alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return cw_strdup("");
    char *s = xrealloc(NULL, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

void report_init(report *r)
{
    memset(r, 0, sizeof *r);
    r->schema = 1;
    r->tool_version = cw_strdup(CW_VERSION);
    r->provenance.rank = -1;
}

kernel_report *report_add_kernel(report *r, const char *name)
{
    r->kernels = xrealloc(r->kernels, (r->nkernels + 1) * sizeof *r->kernels);
    kernel_report *k = &r->kernels[r->nkernels++];
    memset(k, 0, sizeof *k);
    k->name = cw_strdup(name);
    k->kind = cw_strdup("gpu");
    k->plan_index = -1;
    k->source = -1;
    return k;
}

static finding *add_finding(kernel_report *k, const char *id, severity sev,
                            const char *file, int line, const char *hint)
{
    k->findings = xrealloc(k->findings, (k->nfindings + 1) * sizeof *k->findings);
    finding *f = &k->findings[k->nfindings++];
    memset(f, 0, sizeof *f);
    f->id = cw_strdup(id);
    f->sev = sev;
    f->file = cw_strdup(file);
    f->line = line;
    f->hint = cw_strdup(hint);
    return f;
}

finding *report_add_finding(kernel_report *k, finding_kind kind, severity sev,
                            const char *file, int line, const char *hint,
                            const char *fmt, ...)
{
    const finding_info *info = finding_info_of(kind);
    finding *f = add_finding(k, info ? info->id : "unregistered", sev, file, line, hint);
    va_list ap;
    va_start(ap, fmt);
    f->message = vformat(fmt, ap);
    va_end(ap);
    return f;
}

finding *report_add_finding_id(kernel_report *k, const char *id, severity sev,
                               const char *file, int line, const char *hint,
                               const char *message)
{
    finding *f = add_finding(k, id, sev, file, line, hint);
    f->message = cw_strdup(message ? message : "");
    return f;
}

static void detail_set(finding *f, const char *key, json_t *v)
{
    if (!f || !v) {
        json_decref(v);
        return;
    }
    if (!f->detail)
        f->detail = json_object();
    if (!f->detail || json_object_set_new(f->detail, key, v) != 0)
        cw_out_of_memory(sizeof(json_t));
}

void finding_detail_str(finding *f, const char *key, const char *value)
{
    detail_set(f, key, value ? json_string(value) : json_null());
}

void finding_detail_int(finding *f, const char *key, long long value)
{
    detail_set(f, key, json_integer((json_int_t)value));
}

void finding_detail_uint(finding *f, const char *key, unsigned long long value)
{
    /* JSON integers are signed 64-bit here; larger counts do not occur in
     * a plan (sizes are bounded by the device), but say so rather than wrap */
    detail_set(f, key, value <= (unsigned long long)INT64_MAX
                           ? json_integer((json_int_t)value)
                           : json_real((double)value));
}

void finding_detail_real(finding *f, const char *key, double value)
{
    detail_set(f, key, isfinite(value) ? json_real(value) : json_null());
}

void finding_detail_bool(finding *f, const char *key, int value)
{
    detail_set(f, key, json_boolean(value));
}

void finding_detail_u32x3(finding *f, const char *key, const uint32_t v[3])
{
    detail_set(f, key, json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1],
                                 (json_int_t)v[2]));
}

void finding_detail_int_pair(finding *f, const char *key, long long a, long long b)
{
    detail_set(f, key, json_pack("[II]", (json_int_t)a, (json_int_t)b));
}

json_t *finding_detail_get(const finding *f, const char *key)
{
    return f && f->detail ? json_object_get(f->detail, key) : NULL;
}

void prediction_add_assumption(prediction *p, const char *fmt, ...)
{
    p->assumptions = xrealloc(p->assumptions,
                              (p->nassumptions + 1) * sizeof *p->assumptions);
    va_list ap;
    va_start(ap, fmt);
    p->assumptions[p->nassumptions++] = vformat(fmt, ap);
    va_end(ap);
}

void prediction_add_term(prediction *p, const char *name, double time_us)
{
    for (size_t i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, name) == 0) {
            p->terms[i].time_us = time_us;
            return;
        }
    p->terms = xrealloc(p->terms, (p->nterms + 1) * sizeof *p->terms);
    p->terms[p->nterms].name = cw_strdup(name);
    p->terms[p->nterms].time_us = time_us;
    p->nterms++;
}

counter_value *measurement_add_counter(measurement *m, const char *name)
{
    m->counters = xrealloc(m->counters, (m->ncounters + 1) * sizeof *m->counters);
    counter_value *c = &m->counters[m->ncounters++];
    memset(c, 0, sizeof *c);
    c->name = cw_strdup(name);
    return c;
}

static void prediction_free(prediction *p)
{
    free(p->bound);
    cw_free_strv(p->assumptions, p->nassumptions);
    for (size_t i = 0; i < p->nterms; i++)
        free(p->terms[i].name);
    free(p->terms);
    memset(p, 0, sizeof *p);
}

void measurement_free(measurement *m)
{
    free(m->sample_us);
    free(m->counters_scope);
    for (size_t i = 0; i < m->ncounters; i++) {
        free(m->counters[i].name);
        free(m->counters[i].reason);
    }
    free(m->counters);
    free(m->error);
    free(m->clock.unavailable);
    memset(m, 0, sizeof *m);
}

int clock_reading_note(clock_reading *c, double probe_us)
{
    c->ran = 1;
    if (c->probes++ == 0)
        c->first_probe_us = probe_us;
    c->probe_us = probe_us;
    c->ratio = probe_us > 0 && c->expected_us > 0 ? c->expected_us / probe_us : 0;
    c->settled = c->ratio >= CLOCK_SETTLED_RATIO;
    return c->settled;
}

/* The owned strings of a kernel's report, of a finding, of provenance. */
static const size_t kernel_strs[] = {
    offsetof(kernel_report, name),   offsetof(kernel_report, kind),
    offsetof(kernel_report, shader), offsetof(kernel_report, entry),
    offsetof(kernel_report, plan),
};
static const size_t finding_strs[] = {
    offsetof(finding, id), offsetof(finding, message), offsetof(finding, hint),
    offsetof(finding, file),
};
static const size_t provenance_strs[] = {
    offsetof(report_provenance, host),         offsetof(report_provenance, node),
    offsetof(report_provenance, job),          offsetof(report_provenance, shard_source),
    offsetof(report_provenance, set_id),
};
#define NFIELDS(a) (sizeof(a) / sizeof *(a))

void kernel_report_free(kernel_report *k)
{
    cw_free_fields(k, kernel_strs, NFIELDS(kernel_strs));
    for (size_t i = 0; i < k->nfindings; i++) {
        cw_free_fields(&k->findings[i], finding_strs, NFIELDS(finding_strs));
        json_decref(k->findings[i].detail);
    }
    free(k->findings);
    prediction_free(&k->prediction);
    measurement_free(&k->measurement);
    free(k->divergence.explanation);
    memset(k, 0, sizeof *k);
}

void report_free(report *r)
{
    for (size_t i = 0; i < r->nkernels; i++)
        kernel_report_free(&r->kernels[i]);
    free(r->kernels);
    free(r->tool_version);
    report_device_free(&r->device);
    report_provenance_free(&r->provenance);
    for (size_t i = 0; i < r->nsources; i++) {
        free(r->sources[i].file);
        report_provenance_free(&r->sources[i].prov);
        report_device_free(&r->sources[i].device);
    }
    free(r->sources);
    free(r->fleet_json);
    memset(r, 0, sizeof *r);
}

const report_device_field report_device_fields[] = {
    {"name", offsetof(report_device, name), 0},
    {"vendor", offsetof(report_device, vendor), 0},
    {"driver", offsetof(report_device, driver), 0},
    {"api", offsetof(report_device, api), 0},
    {"type", offsetof(report_device, type), 0},
    {"profile", offsetof(report_device, profile), 0},
    {"profile_path", offsetof(report_device, profile_path), 0},
    {"uuid", offsetof(report_device, uuid), 0},
    {"selected_by", offsetof(report_device, selected_by), 1},
    {NULL, 0, 0},
};

void report_device_free(report_device *d)
{
    for (const report_device_field *f = report_device_fields; f->key; f++)
        free(REPORT_DEVICE_FIELD(d, f));
    memset(d, 0, sizeof *d);
}

void report_device_copy(report_device *dst, const report_device *src)
{
    for (const report_device_field *f = report_device_fields; f->key; f++)
        REPORT_DEVICE_FIELD(dst, f) = cw_strdup(REPORT_DEVICE_FIELD(src, f));
}

void report_provenance_free(report_provenance *p)
{
    cw_free_fields(p, provenance_strs, NFIELDS(provenance_strs));
    cw_free_strv(p->plans, p->nplans);
    memset(p, 0, sizeof *p);
    p->rank = -1;
}

void report_provenance_copy(report_provenance *dst, const report_provenance *src)
{
    *dst = *src;
    cw_dup_fields(dst, src, provenance_strs, NFIELDS(provenance_strs));
    dst->plans = cw_copy_strv(src->plans, src->nplans);
}

static void *copy_array(const void *src, size_t n, size_t size)
{
    if (!n)
        return NULL;
    void *d = xrealloc(NULL, n * size);
    memcpy(d, src, n * size);
    return d;
}

void kernel_report_copy(kernel_report *dst, const kernel_report *src)
{
    *dst = *src;
    cw_dup_fields(dst, src, kernel_strs, NFIELDS(kernel_strs));
    dst->findings = copy_array(src->findings, src->nfindings, sizeof *src->findings);
    for (size_t i = 0; i < src->nfindings; i++) {
        finding *f = &dst->findings[i];
        cw_dup_fields(f, f, finding_strs, NFIELDS(finding_strs));
        f->detail = f->detail ? json_deep_copy(f->detail) : NULL;
    }
    prediction *p = &dst->prediction;
    p->bound = cw_strdup(p->bound);
    p->assumptions = cw_copy_strv(p->assumptions, p->nassumptions);
    p->terms = copy_array(p->terms, p->nterms, sizeof *p->terms);
    for (size_t i = 0; i < p->nterms; i++)
        p->terms[i].name = cw_strdup(p->terms[i].name);
    measurement *m = &dst->measurement;
    m->sample_us = copy_array(m->sample_us, m->nsample_us, sizeof *m->sample_us);
    m->counters_scope = cw_strdup(m->counters_scope);
    m->counters = copy_array(m->counters, m->ncounters, sizeof *m->counters);
    for (size_t i = 0; i < m->ncounters; i++) {
        m->counters[i].name = cw_strdup(m->counters[i].name);
        m->counters[i].reason = cw_strdup(m->counters[i].reason);
    }
    m->error = cw_strdup(m->error);
    m->clock.unavailable = cw_strdup(m->clock.unavailable);
    dst->divergence.explanation = cw_strdup(dst->divergence.explanation);
}

const char *severity_name(severity s)
{
    switch (s) {
    case SEV_ERROR: return "error";
    case SEV_WARNING: return "warning";
    default: return "note";
    }
}

const char *confidence_name(confidence c)
{
    switch (c) {
    case CONF_EXACT: return "exact";
    case CONF_ESTIMATED: return "estimated";
    default: return "unknown";
    }
}

const char *div_status_name(div_status s)
{
    switch (s) {
    case DIV_OK: return "ok";
    case DIV_SLOWER: return "slower";
    case DIV_FASTER: return "faster";
    default: return "unknown";
    }
}

size_t kernel_report_count(const kernel_report *k, severity s)
{
    size_t n = 0;
    for (size_t i = 0; i < k->nfindings; i++)
        n += k->findings[i].sev == s;
    return n;
}

cw_status report_kernel_status(const kernel_report *k, int measured)
{
    int code = CW_STATUS_OK;
    if (k->input_error)
        code = cw_status_worst(code, CW_STATUS_INPUT);
    if (kernel_report_count(k, SEV_ERROR))
        code = cw_status_worst(code, CW_STATUS_FINDINGS);
    /* env_error: the static stage failed for the environment (out of
     * memory compiling), which check reports too */
    if ((measured || k->env_error) && k->measurement.error)
        code = cw_status_worst(code, CW_STATUS_ENV);
    if (measured && k->divergence.valid &&
        (k->divergence.status == DIV_SLOWER || k->divergence.status == DIV_FASTER))
        code = cw_status_worst(code, CW_STATUS_DIVERGENCE);
    return code;
}

cw_status report_status(const report *r, int measured)
{
    int code = CW_STATUS_OK;
    for (size_t i = 0; i < r->nkernels; i++)
        code = cw_status_worst(code, report_kernel_status(&r->kernels[i], measured));
    return code;
}

