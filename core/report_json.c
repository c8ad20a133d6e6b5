/* report_json.c - report <-> JSON (schema 1). */
#include "input.h"
#include "report.h"
#include "jsonpos.h"
#include "alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------- writing ---------- */

/* A measurement's sample statistics (µs), in report order; the median
 * first: the writer and the reader both walk this list. */
static const struct {
    const char *key;
    size_t offset;
} stat_times[] = {
    {"median_us", offsetof(measurement, median_us)}, {"mad_us", offsetof(measurement, mad_us)},
    {"min_us", offsetof(measurement, min_us)},       {"max_us", offsetof(measurement, max_us)},
    {"p90_us", offsetof(measurement, p90_us)},
};
#define NSTAT_TIMES (sizeof stat_times / sizeof *stat_times)

static json_t *jstr(const char *s) { return s ? json_string(s) : json_null(); }
static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }
/* A count (FLOPs, bytes): an exact integer while a double holds one, so
 * 2^40 bytes is 1099511627776 and not 1.099511628e+12 (issue 16). */
static json_t *jcount(double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 9007199254740992.0)
        return json_integer((json_int_t)v);
    return jnum(v);
}

static json_t *u32_triple(const uint32_t v[3])
{
    return json_pack("[III]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

static json_t *finding_json(const finding *f)
{
    json_t *o = json_object();
    /* check-specific detail first, so the fixed keys below win on clashes */
    if (f->detail)
        json_object_update(o, f->detail);
    json_object_set_new(o, "id", jstr(f->id));
    json_object_set_new(o, "severity", json_string(severity_name(f->sev)));
    json_object_set_new(o, "message", jstr(f->message));
    json_object_set_new(o, "hint", jstr(f->hint));
    json_object_set_new(o, "file", jstr(f->file));
    json_object_set_new(o, "line", f->line > 0 ? json_integer(f->line) : json_null());
    return o;
}

static json_t *prediction_json(const prediction *p)
{
    if (!p->valid)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "time_us", jnum(p->time_us));
    json_object_set_new(o, "ideal_time_us", jnum(p->ideal_time_us));
    int range = p->time_high_us > 0 && p->time_high_us >= p->time_low_us;
    json_object_set_new(o, "time_low_us",
                        range ? jnum(p->time_low_us) : json_null());
    json_object_set_new(o, "time_high_us",
                        range ? jnum(p->time_high_us) : json_null());
    json_object_set_new(o, "bound", jstr(p->bound));
    json_object_set_new(o, "flops", jcount(p->flops));
    json_object_set_new(o, "bytes", jcount(p->bytes));
    json_object_set_new(o, "invocations", json_integer((json_int_t)p->invocations));
    json_object_set_new(o, "confidence", json_string(confidence_name(p->conf)));
    json_object_set_new(o, "registers_per_invocation",
                        p->registers_per_invocation
                            ? json_integer(p->registers_per_invocation)
                            : json_null());
    json_t *a = json_array();
    for (size_t i = 0; i < p->nassumptions; i++)
        json_array_append_new(a, json_string(p->assumptions[i]));
    json_object_set_new(o, "assumptions", a);
    json_t *t = json_object();
    for (size_t i = 0; i < p->nterms; i++)
        json_object_set_new(t, p->terms[i].name, jnum(p->terms[i].time_us));
    json_object_set_new(o, "terms_us", t);
    return o;
}

static json_t *measurement_json(const measurement *m)
{
    if (!m->valid && !m->error)
        return json_null();
    json_t *o = json_object();
    if (m->error)
        json_object_set_new(o, "error", json_string(m->error));
    if (m->valid) {
        json_object_set_new(o, "samples", json_integer(m->samples));
        for (size_t i = 0; i < NSTAT_TIMES; i++)
            json_object_set_new(o, stat_times[i].key,
                                jnum(*(const double *)((const char *)m + stat_times[i].offset)));
        json_object_set_new(o, "cold_us", m->has_cold ? jnum(m->cold_us) : json_null());
        json_object_set_new(o, "invocations",
                            m->has_invocations ? json_integer((json_int_t)m->invocations)
                                               : json_null());
        json_t *s = json_array();
        for (size_t i = 0; i < m->nsample_us; i++)
            json_array_append_new(s, jnum(m->sample_us[i]));
        json_object_set_new(o, "sample_us", s);
    }
    if (m->clock.ran || m->clock.unavailable) {
        /* the clock check (collectors/vk_clock.h) */
        const clock_reading *ck = &m->clock;
        json_t *k = json_object();
        json_object_set_new(k, "expected_us", jnum(ck->expected_us));
        if (ck->ran) {
            json_object_set_new(k, "first_probe_us", jnum(ck->first_probe_us));
            json_object_set_new(k, "probe_us", jnum(ck->probe_us));
            json_object_set_new(k, "ratio", jnum(ck->ratio));
            json_object_set_new(k, "probes", json_integer(ck->probes));
            json_object_set_new(k, "extra_warmup_s", jnum(ck->extra_warmup_s));
            json_object_set_new(k, "settled", json_boolean(ck->settled));
        } else {
            json_object_set_new(k, "unavailable", json_string(ck->unavailable));
        }
        json_object_set_new(o, "clock", k);
    }
    if (m->load.valid) {
        /* CPUs over the measurement window: what was left to the run */
        json_t *l = json_object();
        json_object_set_new(l, "cpus", json_integer(m->load.cpus));
        json_object_set_new(l, "wall_s", jnum(m->load.wall_s));
        json_object_set_new(l, "self_cpus", jnum(m->load.self_cpus));
        json_object_set_new(l, "others_cpus", jnum(m->load.others_cpus));
        json_object_set_new(l, "steal_cpus", jnum(m->load.steal_cpus));
        json_object_set_new(l, "loadavg1", jnum(m->load.loadavg1));
        json_object_set_new(l, "busy", json_boolean(m->load.busy));
        json_object_set_new(o, "machine_load", l);
    }
    if (m->counters_scope)
        json_object_set_new(o, "counters_scope", json_string(m->counters_scope));
    json_t *c = json_object();
    for (size_t i = 0; i < m->ncounters; i++) {
        const counter_value *cv = &m->counters[i];
        json_t *e = json_object();
        json_object_set_new(e, "value", cv->available ? jnum(cv->value) : json_null());
        json_object_set_new(e, "available", json_boolean(cv->available));
        if (cv->scaled)
            json_object_set_new(e, "scaled", json_true());
        if (cv->reason)
            json_object_set_new(e, "reason", json_string(cv->reason));
        json_object_set_new(c, cv->name, e);
    }
    json_object_set_new(o, "counters", c);
    return o;
}

static json_t *divergence_json(const divergence *d)
{
    if (!d->valid)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "ratio", d->status == DIV_UNKNOWN ? json_null() : jnum(d->ratio));
    json_object_set_new(o, "status", json_string(div_status_name(d->status)));
    json_object_set_new(o, "explanation", jstr(d->explanation));
    return o;
}

static json_t *device_json(const report_device *d)
{
    json_t *dev = json_object();
    for (const report_device_field *f = report_device_fields; f->key; f++) {
        const char *v = REPORT_DEVICE_FIELD(d, f);
        if (v || !f->omit_null)
            json_object_set_new(dev, f->key, jstr(v));
    }
    return dev;
}

static json_t *provenance_json(const report_provenance *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "host", jstr(p->host));
    json_object_set_new(o, "node", jstr(p->node));
    json_object_set_new(o, "job", jstr(p->job));
    json_object_set_new(o, "rank", p->rank >= 0 ? json_integer(p->rank) : json_null());
    json_object_set_new(o, "shard",
                        json_pack("{s:I,s:I,s:o}", "index", (json_int_t)p->shard_index,
                                  "count", (json_int_t)p->shard_count, "source",
                                  jstr(p->shard_source)));
    json_object_set_new(o, "kernels_total", json_integer((json_int_t)p->kernels_total));
    json_object_set_new(o, "set_id", jstr(p->set_id));
    json_t *pl = json_array();
    for (size_t i = 0; i < p->nplans; i++)
        json_array_append_new(pl, jstr(p->plans[i]));
    json_object_set_new(o, "plans", pl);
    json_object_set_new(o, "exit_code",
                        p->has_exit_code ? json_integer(p->exit_code) : json_null());
    return o;
}

static json_t *report_json(const report *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_integer(r->schema));
    json_object_set_new(root, "tool", json_pack("{s:s,s:s}", "name", "clockwork",
                                                "version", r->tool_version ? r->tool_version : ""));
    json_object_set_new(root, "device", device_json(&r->device));
    if (r->provenance.valid)
        json_object_set_new(root, "provenance", provenance_json(&r->provenance));
    if (r->nsources) {
        json_t *ss = json_array();
        for (size_t i = 0; i < r->nsources; i++) {
            const report_source *src = &r->sources[i];
            json_t *so = json_object();
            json_object_set_new(so, "file", jstr(src->file));
            json_object_set_new(so, "device", device_json(&src->device));
            json_object_set_new(so, "provenance", provenance_json(&src->prov));
            json_object_set_new(so, "exit_code", json_integer(src->exit_code));
            json_array_append_new(ss, so);
        }
        json_object_set_new(root, "sources", ss);
    }
    if (r->fleet_json) {
        json_t *f = json_loads(r->fleet_json, 0, NULL);
        if (f)
            json_object_set_new(root, "fleet", f);
    }
    json_t *ks = json_array();
    for (size_t i = 0; i < r->nkernels; i++) {
        const kernel_report *k = &r->kernels[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", jstr(k->name));
        json_object_set_new(o, "kind", jstr(k->kind));
        json_object_set_new(o, "shader", jstr(k->shader));
        json_object_set_new(o, "entry", jstr(k->entry));
        json_object_set_new(o, "workgroups", u32_triple(k->workgroups));
        json_object_set_new(o, "local_size", u32_triple(k->local_size));
        json_t *fs = json_array();
        for (size_t j = 0; j < k->nfindings; j++)
            json_array_append_new(fs, finding_json(&k->findings[j]));
        json_object_set_new(o, "findings", fs);
        json_object_set_new(o, "prediction", prediction_json(&k->prediction));
        json_object_set_new(o, "measurement", measurement_json(&k->measurement));
        json_object_set_new(o, "divergence", divergence_json(&k->divergence));
        if (k->input_error)
            json_object_set_new(o, "input_error", json_true());
        if (k->plan)
            json_object_set_new(o, "plan", json_string(k->plan));
        if (k->plan_index >= 0)
            json_object_set_new(o, "plan_index", json_integer(k->plan_index));
        if (k->source >= 0)
            json_object_set_new(o, "source", json_integer(k->source));
        json_array_append_new(ks, o);
    }
    json_object_set_new(root, "kernels", ks);
    return root;
}

char *report_to_json_text(const report *r)
{
    json_t *root = report_json(r);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *out = realloc(s, n + 2); /* trailing newline for terminals and diff */
    if (!out) {
        free(s);
        return NULL;
    }
    out[n] = '\n';
    out[n + 1] = 0;
    return out;
}

/* ---------- reading ---------- */

typedef struct rd {
    const char *path;
    cw_error *err;
    int failed;
    const char *text;   /* the report's text and its parse, for positions */
    size_t len;
    const json_t *root;
} rd;

static void rd_fail(rd *c, json_t *where, const char *fmt, const char *what)
{
    if (c->failed)
        return;
    c->failed = 1;
    /* jansson keeps no positions on values after parsing: find the value's
     * path in the tree and its position in the text (core/jsonpos) */
    int line, col;
    jsonpos_locate(c->text, c->len, c->root, where, &line, &col);
    cw_error_set(c->err, c->path, line, col, fmt, what);
}

/* Non-zero when e, an element of the array `what`, is an object; else the
 * read fails ("each of 'what' must be an object"). */
static int element_object(rd *c, json_t *e, const char *what)
{
    if (json_is_object(e))
        return 1;
    rd_fail(c, e, "each of '%s' must be an object", what);
    return 0;
}

/* Non-zero when o is an object to read; absent or null is not (nothing to
 * read), any other type fails the read ("'what' must be an object"). */
static int optional_object(rd *c, json_t *o, const char *what, int say_null)
{
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o)) {
        rd_fail(c, o, say_null ? "'%s' must be an object or null" : "'%s' must be an object",
                what);
        return 0;
    }
    return 1;
}

static char *get_str(rd *c, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        rd_fail(c, v, "'%s' must be a string", key);
        return NULL;
    }
    return cw_strdup(json_string_value(v));
}

static int get_num(rd *c, json_t *o, const char *key, double *out)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v)) {
        rd_fail(c, v, "'%s' must be a number", key);
        return 0;
    }
    *out = json_number_value(v);
    return 1;
}

/* A number that is not negative: a duration (µs), or an amount (flops,
 * bytes, samples, a counter, a ratio).  A negative one would make every
 * ratio and regression meaningless, so the report is refused. */
static int get_nonneg(rd *c, json_t *o, const char *key, double *out, const char *kind)
{
    double v;
    if (!get_num(c, o, key, &v))
        return 0;
    if (v < 0) {
        char what[160];
        snprintf(what, sizeof what, "'%s' is negative (%g): %s cannot be negative", key, v, kind);
        rd_fail(c, o, "%s", what);
        return 0;
    }
    *out = v;
    return 1;
}

static int get_time(rd *c, json_t *o, const char *key, double *out)
{
    return get_nonneg(c, o, key, out, "a time");
}

static int get_amount(rd *c, json_t *o, const char *key, double *out)
{
    return get_nonneg(c, o, key, out, "an amount");
}

static void get_triple(rd *c, json_t *o, const char *key, uint32_t out[3])
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return;
    if (!json_is_array(v) || json_array_size(v) != 3) {
        rd_fail(c, v, "'%s' must be an array of 3 integers", key);
        return;
    }
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            json_integer_value(e) > UINT32_MAX) {
            rd_fail(c, e, "'%s' must hold integers in [0, 2^32)", key);
            return;
        }
        out[i] = (uint32_t)json_integer_value(e);
    }
}

static int parse_enum(const char *s, const char *const *names, int n)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static void read_findings(rd *c, json_t *arr, kernel_report *k)
{
    if (!arr || json_is_null(arr))
        return;
    if (!json_is_array(arr)) {
        rd_fail(c, arr, "'%s' must be an array", "findings");
        return;
    }
    size_t i;
    json_t *f;
    json_array_foreach(arr, i, f) {
        if (!element_object(c, f, "findings"))
            return;
        char *id = get_str(c, f, "id");
        char *sev = get_str(c, f, "severity");
        char *msg = get_str(c, f, "message");
        char *hint = get_str(c, f, "hint");
        char *file = get_str(c, f, "file");
        double line = 0;
        get_num(c, f, "line", &line);
        static const char *const sevs[] = {"note", "warning", "error"};
        int s = parse_enum(sev, sevs, 3);
        if (!id && !c->failed)
            rd_fail(c, f, "a finding has no '%s'", "id");
        else if (s < 0 && !c->failed)
            rd_fail(c, f, "a finding's '%s' must be note, warning or error", "severity");
        if (!c->failed) {
            finding *nf = report_add_finding_id(k, id, (severity)s, file,
                                                line > 0 && line < 1e9 ? (int)line : 0,
                                                hint, msg);
            /* check-specific detail: every key beyond the fixed ones */
            static const char *const fixed[] = {"id", "severity", "message",
                                                "hint", "file", "line"};
            json_t *detail = json_object();
            const char *key;
            json_t *v;
            json_object_foreach(f, key, v) {
                size_t j = 0;
                while (j < 6 && strcmp(key, fixed[j]))
                    j++;
                if (j == 6)
                    json_object_set(detail, key, v);
            }
            if (json_object_size(detail))
                nf->detail = detail;
            else
                json_decref(detail);
        }
        free(id); free(sev); free(msg); free(hint); free(file);
        if (c->failed)
            return;
    }
}


static void read_prediction(rd *c, json_t *o, prediction *p)
{
    if (!optional_object(c, o, "prediction", 1))
        return;
    p->valid = 1;
    get_time(c, o, "time_us", &p->time_us);
    get_time(c, o, "ideal_time_us", &p->ideal_time_us);
    get_time(c, o, "time_low_us", &p->time_low_us);
    get_time(c, o, "time_high_us", &p->time_high_us);
    p->bound = get_str(c, o, "bound");
    get_amount(c, o, "flops", &p->flops);
    get_amount(c, o, "bytes", &p->bytes);
    double inv = 0;
    if (get_amount(c, o, "invocations", &inv) && inv < 1.8e19)
        p->invocations = (uint64_t)inv;
    char *conf = get_str(c, o, "confidence");
    static const char *const confs[] = {"exact", "estimated", "unknown"};
    int ci = parse_enum(conf, confs, 3);
    p->conf = ci < 0 ? CONF_UNKNOWN : (confidence)ci;
    free(conf);
    double regs = 0; /* null or absent (older reports): not reported */
    if (get_num(c, o, "registers_per_invocation", &regs) && regs >= 1 &&
        regs < 4294967296.0)
        p->registers_per_invocation = (uint32_t)regs;
    json_t *a = json_object_get(o, "assumptions");
    if (json_is_array(a)) {
        size_t i;
        json_t *e;
        json_array_foreach(a, i, e)
            if (json_is_string(e))
                prediction_add_assumption(p, "%s", json_string_value(e));
    }
    json_t *t = json_object_get(o, "terms_us");
    if (json_is_object(t)) {
        const char *key;
        json_t *v;
        json_object_foreach(t, key, v)
            if (json_is_number(v) && json_number_value(v) < 0)
                rd_fail(c, v, "'terms_us' has a negative time for '%s'", key);
            else if (json_is_number(v))
                prediction_add_term(p, key, json_number_value(v));
    }
}

static void read_measurement(rd *c, json_t *o, measurement *m)
{
    if (!optional_object(c, o, "measurement", 1))
        return;
    m->error = get_str(c, o, "error");
    double samples = 0;
    if (get_amount(c, o, "samples", &samples) && get_time(c, o, "median_us", &m->median_us)) {
        m->valid = 1;
        m->samples = samples > 0 && samples < 4e9 ? (uint32_t)samples : 0;
    }
    for (size_t i = 1; i < NSTAT_TIMES; i++) /* the median (first) makes it valid, above */
        get_time(c, o, stat_times[i].key, (double *)((char *)m + stat_times[i].offset));
    m->has_cold = get_time(c, o, "cold_us", &m->cold_us);
    double inv = 0;
    if (get_amount(c, o, "invocations", &inv) && inv < 1.8e19) {
        m->has_invocations = 1;
        m->invocations = (uint64_t)inv;
    }
    json_t *s = json_object_get(o, "sample_us");
    if (json_is_array(s) && json_array_size(s) > 0) {
        size_t n = json_array_size(s);
        m->sample_us = calloc(n, sizeof *m->sample_us);
        if (m->sample_us) {
            for (size_t i = 0; i < n; i++) {
                json_t *e = json_array_get(s, i);
                if (json_is_number(e) && json_number_value(e) < 0) {
                    rd_fail(c, e, "%s: a time cannot be negative", "a 'sample_us' entry is negative");
                    break;
                }
                if (json_is_number(e))
                    m->sample_us[m->nsample_us++] = json_number_value(e);
            }
        }
    }
    json_t *ck = json_object_get(o, "clock");
    if (json_is_object(ck)) {
        clock_reading *r = &m->clock;
        get_time(c, ck, "expected_us", &r->expected_us);
        r->unavailable = get_str(c, ck, "unavailable");
        double probes = 0;
        if (!r->unavailable && get_time(c, ck, "probe_us", &r->probe_us) &&
            get_amount(c, ck, "probes", &probes) && probes >= 1 && probes < 1e9) {
            r->ran = 1;
            r->probes = (unsigned)probes;
            if (!get_time(c, ck, "first_probe_us", &r->first_probe_us))
                r->first_probe_us = r->probe_us;
            get_amount(c, ck, "ratio", &r->ratio);
            get_time(c, ck, "extra_warmup_s", &r->extra_warmup_s);
            r->settled = json_is_true(json_object_get(ck, "settled"));
        }
    } else if (ck && !json_is_null(ck)) {
        rd_fail(c, ck, "'%s' must be an object", "clock");
    }
    json_t *ml = json_object_get(o, "machine_load");
    double cpus = 0;
    if (json_is_object(ml) && get_num(c, ml, "cpus", &cpus) && cpus >= 1 && cpus < 1e6) {
        m->load.valid = 1;
        m->load.cpus = (unsigned)cpus;
        get_time(c, ml, "wall_s", &m->load.wall_s);
        get_amount(c, ml, "self_cpus", &m->load.self_cpus);
        get_amount(c, ml, "others_cpus", &m->load.others_cpus);
        get_amount(c, ml, "steal_cpus", &m->load.steal_cpus);
        get_amount(c, ml, "loadavg1", &m->load.loadavg1);
        m->load.busy = json_is_true(json_object_get(ml, "busy"));
    }
    m->counters_scope = get_str(c, o, "counters_scope");
    json_t *cs = json_object_get(o, "counters");
    if (json_is_object(cs)) {
        const char *key;
        json_t *v;
        json_object_foreach(cs, key, v) {
            counter_value *cv = measurement_add_counter(m, key);
            if (!json_is_object(v))
                continue;
            json_t *val = json_object_get(v, "value");
            cv->available = json_is_number(val) && get_amount(c, v, "value", &cv->value);
            cv->scaled = json_is_true(json_object_get(v, "scaled"));
            cv->reason = get_str(c, v, "reason");
        }
    }
}

static void read_divergence(rd *c, json_t *o, divergence *d)
{
    if (!optional_object(c, o, "divergence", 1))
        return;
    d->valid = 1;
    get_amount(c, o, "ratio", &d->ratio);
    char *st = get_str(c, o, "status");
    static const char *const names[] = {"unknown", "ok", "slower", "faster"};
    int s = parse_enum(st, names, 4);
    d->status = s < 0 ? DIV_UNKNOWN : (div_status)s;
    free(st);
    d->explanation = get_str(c, o, "explanation");
}

static void read_device(rd *c, json_t *dev, report_device *d)
{
    if (!json_is_object(dev))
        return;
    for (const report_device_field *f = report_device_fields; f->key; f++)
        REPORT_DEVICE_FIELD(d, f) = get_str(c, dev, f->key);
}

/* A non-negative integer below lim, or -1 (absent or null); a wrong type
 * fails the read. */
static long get_count(rd *c, json_t *o, const char *key, double lim)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_is_null(v))
        return -1;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (double)json_integer_value(v) >= lim) {
        rd_fail(c, v, "'%s' must be a non-negative integer in range", key);
        return -1;
    }
    return (long)json_integer_value(v);
}

static void read_provenance(rd *c, json_t *o, report_provenance *p)
{
    report_provenance_free(p);
    if (!optional_object(c, o, "provenance", 0))
        return;
    p->valid = 1;
    p->host = get_str(c, o, "host");
    p->node = get_str(c, o, "node");
    p->job = get_str(c, o, "job");
    p->rank = get_count(c, o, "rank", 1e15);
    json_t *sh = json_object_get(o, "shard");
    p->shard_count = 1;
    if (json_is_object(sh)) {
        long i = get_count(c, sh, "index", 1e9), n = get_count(c, sh, "count", 1e9);
        if (n < 1 || i < 0 || i >= n) {
            rd_fail(c, sh, "'%s' needs 0 <= index < count", "provenance.shard");
            return;
        }
        p->shard_index = (uint32_t)i;
        p->shard_count = (uint32_t)n;
        p->shard_source = get_str(c, sh, "source");
    }
    long total = get_count(c, o, "kernels_total", 1e15);
    p->kernels_total = total > 0 ? (uint64_t)total : 0;
    p->set_id = get_str(c, o, "set_id");
    json_t *pl = json_object_get(o, "plans");
    if (json_is_array(pl) && json_array_size(pl)) {
        p->plans = xcalloc(json_array_size(pl), sizeof *p->plans);
        size_t i;
        json_t *e;
        json_array_foreach(pl, i, e)
            if (json_is_string(e))
                p->plans[p->nplans++] = cw_strdup(json_string_value(e));
    }
    long ec = get_count(c, o, "exit_code", 256);
    p->has_exit_code = ec >= 0;
    p->exit_code = ec >= 0 ? (int)ec : 0;
}

static void read_sources(rd *c, json_t *arr, report *out)
{
    if (!json_is_array(arr) || !json_array_size(arr))
        return;
    out->sources = xcalloc(json_array_size(arr), sizeof *out->sources);
    size_t i;
    json_t *so;
    json_array_foreach(arr, i, so) {
        if (!element_object(c, so, "sources"))
            return;
        report_source *src = &out->sources[out->nsources++];
        src->file = get_str(c, so, "file");
        read_device(c, json_object_get(so, "device"), &src->device);
        read_provenance(c, json_object_get(so, "provenance"), &src->prov);
        long ec = get_count(c, so, "exit_code", 256);
        src->exit_code = ec > 0 ? (int)ec : 0;
    }
}

int report_read_text(const char *path, const char *text, size_t len,
                     report *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    if (memchr(text, 0, len)) {
        cw_error_set(err, path, 0, 0, "not a valid report: it contains a NUL byte");
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root && (json_error_code(&je) == json_error_out_of_memory || !je.text[0])) {
        /* not the report's fault: exit 4, not 2.  jansson names every
         * syntax error; its allocation failures come with no text */
        cw_error_set_env(err, path, "out of memory reading the report (%zu bytes)", len);
        return -1;
    }
    if (!root) {
        cw_error_set(err, path, je.line, je.column, "not a valid report: %s", je.text);
        return -1;
    }
    int rc = report_read_json(path, text, len, root, out, err);
    json_decref(root);
    return rc;
}

int report_read_json(const char *path, const char *text, size_t len,
                     struct json_t *root, report *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    rd c = {.path = path, .err = err, .text = text, .len = len, .root = root};
    report_init(out);
    if (!json_is_object(root)) {
        rd_fail(&c, root, "a report must be a JSON %s", "object");
        goto done;
    }
    json_t *schema = json_object_get(root, "schema");
    if (!json_is_integer(schema) || json_integer_value(schema) != 1) {
        rd_fail(&c, schema, "unsupported or missing '%s' (this version reads schema 1)", "schema");
        goto done;
    }
    json_t *tool = json_object_get(root, "tool");
    if (json_is_object(tool)) {
        char *v = get_str(&c, tool, "version");
        if (v) {
            free(out->tool_version);
            out->tool_version = v;
        }
    }
    read_device(&c, json_object_get(root, "device"), &out->device);
    read_provenance(&c, json_object_get(root, "provenance"), &out->provenance);
    read_sources(&c, json_object_get(root, "sources"), out);
    json_t *fleet = json_object_get(root, "fleet");
    if (json_is_object(fleet))
        out->fleet_json = json_dumps(fleet, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_t *ks = json_object_get(root, "kernels");
    if (!json_is_array(ks)) {
        rd_fail(&c, ks, "'%s' must be an array", "kernels");
        goto done;
    }
    size_t i;
    json_t *ko;
    json_array_foreach(ks, i, ko) {
        if (!element_object(&c, ko, "kernels"))
            break;
        char *name = get_str(&c, ko, "name");
        if (!name) {
            rd_fail(&c, ko, "a kernel has no '%s'", "name");
            break;
        }
        kernel_report *k = report_add_kernel(out, name);
        free(name);
        char *kind = get_str(&c, ko, "kind");
        if (kind) {
            free(k->kind);
            k->kind = kind;
        }
        k->shader = get_str(&c, ko, "shader");
        k->entry = get_str(&c, ko, "entry");
        get_triple(&c, ko, "workgroups", k->workgroups);
        get_triple(&c, ko, "local_size", k->local_size);
        k->input_error = json_is_true(json_object_get(ko, "input_error"));
        k->plan = get_str(&c, ko, "plan");
        k->plan_index = get_count(&c, ko, "plan_index", 1e15);
        k->source = get_count(&c, ko, "source", (double)out->nsources);
        read_findings(&c, json_object_get(ko, "findings"), k);
        read_prediction(&c, json_object_get(ko, "prediction"), &k->prediction);
        read_measurement(&c, json_object_get(ko, "measurement"), &k->measurement);
        read_divergence(&c, json_object_get(ko, "divergence"), &k->divergence);
        if (c.failed)
            break;
    }
done:
    if (c.failed) {
        report_free(out);
        return -1;
    }
    return 0;
}

static int parse_report(const char *path, const char *text, size_t len, void *out,
                        cw_error *err)
{
    return report_read_text(path, text, len, out, err);
}

int report_read_file(const char *path, report *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    /* pipes are fine (diff <(...) <(...)); directories and devices are not */
    return cw_parse_input(path, "report", 1, (size_t)1 << 31, 0, parse_report, out, err);
}
