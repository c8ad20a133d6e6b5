/* fleet.c - see fleet.h. */
#include "fleet.h"
#include "alloc.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "verdict.h"

typedef struct fleet_device {
    char key[512];
    size_t source;        /* first source of the device */
    size_t compared, off; /* kernels shared with siblings, kernels off */
    double *ratios;       /* ratio to the siblings per compared kernel */
    int outlier;
} fleet_device;

typedef struct fleet_ctx {
    report *r;
    double threshold;
    fleet_device *devs;
    size_t ndevs;
    size_t *dev_of_source;
} fleet_ctx;

static int same_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void map_devices(fleet_ctx *c)
{
    report *r = c->r;
    c->devs = xcalloc(r->nsources + 1, sizeof *c->devs);
    c->dev_of_source = xcalloc(r->nsources + 1, sizeof *c->dev_of_source);
    for (size_t s = 0; s < r->nsources; s++) {
        char key[512];
        merge_device_key(&r->sources[s].prov, &r->sources[s].device, key, sizeof key);
        size_t d = 0;
        while (d < c->ndevs && strcmp(c->devs[d].key, key))
            d++;
        if (d == c->ndevs) {
            snprintf(c->devs[d].key, sizeof c->devs[d].key, "%s", key);
            c->devs[d].source = s;
            c->devs[d].ratios = xcalloc(r->nkernels + 1, sizeof *c->devs[d].ratios);
            c->ndevs++;
        }
        c->dev_of_source[s] = d;
    }
}

/* One kernel identity's measurements: kernel index, device, median. */
typedef struct sample {
    size_t kernel, dev;
    double median, mad, predicted; /* predicted <= 0: none */
    int off;
    double to_siblings, to_model;
} sample;

static const report *sorting;

static int cmp_identity(const void *pa, const void *pb)
{
    const kernel_report *a = &sorting->kernels[*(const size_t *)pa];
    const kernel_report *b = &sorting->kernels[*(const size_t *)pb];
    int c = strcmp(a->plan ? a->plan : "", b->plan ? b->plan : "");
    if (!c)
        c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
    if (!c)
        c = a->plan_index < b->plan_index ? -1 : a->plan_index > b->plan_index;
    if (!c)
        c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
    return c;
}

static int same_identity(const kernel_report *a, const kernel_report *b)
{
    return same_str(a->plan, b->plan) && same_str(a->name, b->name) &&
           a->plan_index == b->plan_index;
}

/* Is s off against the others of the group? */
static void judge_sample(const fleet_ctx *c, sample *g, size_t n, size_t i, double *scratch)
{
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (j != i)
            scratch[m++] = g[j].median;
    double sib = median_of(scratch, m);
    double lo = scratch[0], hi = scratch[m - 1]; /* sorted by median_of */
    sample *s = &g[i];
    s->to_siblings = s->median / sib;
    double band = log1p(c->threshold);
    int beyond = fabs(log(s->to_siblings)) > band && fabs(s->median - sib) > 3 * s->mad;
    int from_model;
    if (s->predicted > 0) {
        s->to_model = s->median / s->predicted;
        from_model = fabs(log(s->to_model)) > fabs(log(sib / s->predicted));
    } else {
        s->to_model = NAN;
        from_model = m >= 2 && log(hi / lo) <= band; /* siblings agree */
    }
    s->off = beyond && from_model;
}

static json_t *kernel_entry(const fleet_ctx *c, const sample *g, size_t n, double *scratch)
{
    const kernel_report *k = &c->r->kernels[g[0].kernel];
    for (size_t i = 0; i < n; i++)
        scratch[i] = g[i].median;
    double med = median_of(scratch, n);
    json_t *o = json_pack("{s:o,s:s,s:I,s:I,s:f,s:f,s:f,s:f}", "plan",
                          k->plan ? json_string(k->plan) : json_null(), "name",
                          k->name ? k->name : "", "plan_index", (json_int_t)k->plan_index,
                          "devices", (json_int_t)n, "min_us", scratch[0], "median_us", med,
                          "max_us", scratch[n - 1], "spread", scratch[n - 1] / scratch[0]);
    json_t *per = json_array(), *off = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_pack("{s:s,s:f,s:f}", "device", c->devs[g[i].dev].key, "median_us",
                              g[i].median, "to_siblings", g[i].to_siblings);
        json_object_set_new(e, "to_model",
                            isfinite(g[i].to_model) ? json_real(g[i].to_model) : json_null());
        json_array_append_new(per, e);
        if (g[i].off)
            json_array_append_new(off, json_string(c->devs[g[i].dev].key));
    }
    json_object_set_new(o, "per_device", per);
    json_object_set_new(o, "off", off);
    return o;
}

/* Groups the kernels by identity; fills samples and the devices' counts. */
static json_t *compare_kernels(fleet_ctx *c, sample **all_out, size_t *nall)
{
    report *r = c->r;
    size_t *ord = xcalloc(r->nkernels + 1, sizeof *ord);
    sample *all = xcalloc(r->nkernels + 1, sizeof *all);
    double *scratch = xcalloc(r->nkernels + 1, sizeof *scratch);
    size_t n = 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        const kernel_report *k = &r->kernels[i];
        if (k->source >= 0 && (size_t)k->source < r->nsources && k->measurement.valid &&
            k->measurement.median_us > 0)
            ord[n++] = i;
    }
    sorting = r;
    qsort(ord, n, sizeof *ord, cmp_identity);
    sorting = NULL;
    json_t *kernels = json_array();
    size_t na = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && same_identity(&r->kernels[ord[a]], &r->kernels[ord[b]]))
            b++;
        sample *g = all + na;
        size_t m = 0;
        for (size_t i = a; i < b; i++) {
            const kernel_report *k = &r->kernels[ord[i]];
            size_t dev = c->dev_of_source[k->source];
            int seen = 0;
            for (size_t j = 0; j < m; j++)
                seen |= g[j].dev == dev;
            if (seen)
                continue; /* one measurement per device */
            g[m++] = (sample){.kernel = ord[i], .dev = dev, .median = k->measurement.median_us,
                              .mad = k->measurement.mad_us,
                              .predicted = k->prediction.valid ? k->prediction.time_us : 0};
        }
        if (m >= 2) {
            for (size_t i = 0; i < m; i++) {
                judge_sample(c, g, m, i, scratch);
                fleet_device *d = &c->devs[g[i].dev];
                d->ratios[d->compared++] = g[i].to_siblings;
                d->off += (size_t)g[i].off;
            }
            json_array_append_new(kernels, kernel_entry(c, g, m, scratch));
            na += m;
        }
        a = b;
    }
    free(ord);
    free(scratch);
    *all_out = all;
    *nall = na;
    return kernels;
}

static void add_findings(fleet_ctx *c, const sample *all, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const sample *s = &all[i];
        if (!s->off || !c->devs[s->dev].outlier)
            continue;
        kernel_report *k = &c->r->kernels[s->kernel];
        const fleet_device *d = &c->devs[s->dev];
        char model[96] = "";
        if (isfinite(s->to_model))
            snprintf(model, sizeof model, " and %.2fx the model's prediction", s->to_model);
        report_add_finding(k, FINDING_DEVICE_OUTLIER, SEV_WARNING, NULL, 0,
                           "compare this device's clocks, temperature, power limit and "
                           "errors (nvidia-smi -q) with its siblings', or leave it out of "
                           "the pool",
                           "device %s measured %.2fx the median of its %s%s; it is off on "
                           "%zu of the %zu kernels it shares with them",
                           d->key, s->to_siblings, "sibling devices", model, d->off,
                           d->compared);
    }
}

int fleet_analyse(report *r, double threshold)
{
    fleet_ctx c = {.r = r, .threshold = threshold > 0 ? threshold : VERDICT_DEFAULT_TOLERANCE};
    map_devices(&c);
    sample *all = NULL;
    size_t nall = 0;
    json_t *kernels = compare_kernels(&c, &all, &nall);
    int outliers = 0;
    json_t *devs = json_array();
    for (size_t d = 0; d < c.ndevs; d++) {
        fleet_device *fd = &c.devs[d];
        fd->outlier = fd->compared && 2 * fd->off >= fd->compared;
        outliers += fd->outlier;
        const report_source *s = &r->sources[fd->source];
        double med = fd->compared ? median_of(fd->ratios, fd->compared) : NAN;
        json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:I,s:I,s:o,s:b}", "device", fd->key,
                              "host", s->prov.host ? json_string(s->prov.host) : json_null(),
                              "node", s->prov.node ? json_string(s->prov.node) : json_null(),
                              "name", s->device.name ? json_string(s->device.name) : json_null(),
                              "uuid", s->device.uuid ? json_string(s->device.uuid) : json_null(),
                              "kernels_compared", (json_int_t)fd->compared, "kernels_off",
                              (json_int_t)fd->off, "median_to_siblings",
                              isfinite(med) ? json_real(med) : json_null(), "outlier",
                              fd->outlier);
        json_array_append_new(devs, o);
    }
    add_findings(&c, all, nall);
    free(r->fleet_json);
    r->fleet_json = NULL;
    if (json_array_size(kernels)) {
        json_t *f = json_pack("{s:f,s:o,s:o}", "threshold", c.threshold, "devices", devs,
                              "kernels", kernels);
        r->fleet_json = json_dumps(f, JSON_PRESERVE_ORDER | JSON_COMPACT);
        json_decref(f);
    } else {
        json_decref(devs);
        json_decref(kernels);
    }
    for (size_t d = 0; d < c.ndevs; d++)
        free(c.devs[d].ratios);
    free(c.devs);
    free(c.dev_of_source);
    free(all);
    return outliers;
}

void fleet_write_table(const report *r, FILE *out)
{
    json_t *f = r->fleet_json ? json_loads(r->fleet_json, 0, NULL) : NULL;
    if (!f)
        return;
    fprintf(out, "\nfleet: the same kernels on %zu devices (off: beyond ±%.0f%% of the "
                 "siblings' median and further from the model)\n",
            json_array_size(json_object_get(f, "devices")),
            100 * json_number_value(json_object_get(f, "threshold")));
    fprintf(out, "%-28s %7s %11s %11s %11s %7s  %s\n", "kernel", "devices", "min", "median",
            "max", "spread", "off");
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(f, "kernels"), i, k) {
        char mn[32], md[32], mx[32], off[256] = "";
        units_time_us(mn, sizeof mn, json_number_value(json_object_get(k, "min_us")));
        units_time_us(md, sizeof md, json_number_value(json_object_get(k, "median_us")));
        units_time_us(mx, sizeof mx, json_number_value(json_object_get(k, "max_us")));
        size_t j;
        json_t *o;
        json_array_foreach(json_object_get(k, "off"), j, o) {
            size_t len = strlen(off);
            snprintf(off + len, sizeof off - len, "%s%s", j ? ", " : "", json_string_value(o));
        }
        fprintf(out, "%-28.28s %7lld %11s %11s %11s %6.2fx  %s\n",
                json_string_value(json_object_get(k, "name")),
                (long long)json_integer_value(json_object_get(k, "devices")), mn, md, mx,
                json_number_value(json_object_get(k, "spread")), off[0] ? off : "-");
    }
    json_t *d;
    json_array_foreach(json_object_get(f, "devices"), i, d) {
        json_t *ratio = json_object_get(d, "median_to_siblings");
        fprintf(out, "device %-40s %s: off on %lld of %lld kernels, median %.2fx its "
                     "siblings\n",
                json_string_value(json_object_get(d, "device")),
                json_is_true(json_object_get(d, "outlier")) ? "OUTLIER" : "ok",
                (long long)json_integer_value(json_object_get(d, "kernels_off")),
                (long long)json_integer_value(json_object_get(d, "kernels_compared")),
                json_is_number(ratio) ? json_number_value(ratio) : NAN);
    }
    json_decref(f);
}
