/* report_text.c - the report for people (aligned table) and spreadsheets
 * (CSV), SARIF 2.1.0 for code-scanning tools, and the format dispatch. */
#include "termtext.h"
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int kernel_failed_static(const kernel_report *k)
{
    return k->input_error || !k->prediction.valid;
}

/* Width of a UTF-8 string in columns (µ counts once). */
static int text_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *out, const char *s, int width, int right)
{
    int n = width - text_width(s);
    if (right)
        for (int i = 0; i < n; i++)
            fputc(' ', out);
    fputs(s, out);
    if (!right)
        for (int i = 0; i < n; i++)
            fputc(' ', out);
}

typedef struct col {
    const char *title;
    int right;
} col;

void report_write_table(const report *r, FILE *out, int measured)
{
    static const col check_cols[] = {
        {"kernel", 0}, {"bound", 0}, {"ideal", 1}, {"predicted", 1},
        {"efficiency", 1}, {"confidence", 0}, {"findings", 0}};
    static const col run_cols[] = {
        {"kernel", 0}, {"bound", 0}, {"ideal", 1}, {"predicted", 1},
        {"measured", 1}, {"spread", 1}, {"ratio", 1}, {"verdict", 0},
        {"findings", 0}};
    const col *cols = measured ? run_cols : check_cols;
    size_t ncols = measured ? sizeof run_cols / sizeof *run_cols
                            : sizeof check_cols / sizeof *check_cols;
    size_t nk = r->nkernels;
    char(*cells)[48] = xcalloc((nk + 1) * ncols, sizeof *cells);
    for (size_t c = 0; c < ncols; c++)
        snprintf(cells[c], 48, "%s", cols[c].title);
    for (size_t i = 0; i < nk; i++) {
        const kernel_report *k = &r->kernels[i];
        const prediction *p = &k->prediction;
        const measurement *m = &k->measurement;
        char(*row)[48] = cells + (i + 1) * ncols;
        size_t c = 0;
        char *name1 = cw_term_line(k->name); /* one row per kernel */
        snprintf(row[c++], 48, "%s", name1);
        free(name1);
        if (kernel_failed_static(k)) {
            snprintf(row[c++], 48, "%s", k->input_error ? "invalid" : "-");
            for (; c < ncols - 1; c++)
                snprintf(row[c], 48, "-");
        } else {
            snprintf(row[c++], 48, "%s", p->bound ? p->bound : "-");
            units_time_us(row[c++], 48, p->ideal_time_us);
            units_time_us(row[c++], 48, p->time_us);
            if (!measured) {
                if (p->time_us > 0)
                    snprintf(row[c++], 48, "%.0f%%", 100.0 * p->ideal_time_us / p->time_us);
                else
                    snprintf(row[c++], 48, "-");
                snprintf(row[c++], 48, "%s", confidence_name(p->conf));
            }
        }
        if (measured) {
            c = 4;
            if (m->valid) {
                units_time_us(row[c++], 48, m->median_us);
                if (m->median_us > 0)
                    snprintf(row[c++], 48, "±%.1f%%", 100.0 * m->mad_us / m->median_us);
                else
                    snprintf(row[c++], 48, "-");
            } else {
                snprintf(row[c++], 48, "%s", m->error ? "failed" : "-");
                snprintf(row[c++], 48, "-");
            }
            const divergence *d = &k->divergence;
            if (d->valid && d->status != DIV_UNKNOWN)
                snprintf(row[c++], 48, "%.2f×", d->ratio);
            else
                snprintf(row[c++], 48, "-");
            snprintf(row[c++], 48, "%s", d->valid ? div_status_name(d->status) : "unknown");
        }
        size_t ne = kernel_report_count(k, SEV_ERROR);
        size_t nw = kernel_report_count(k, SEV_WARNING);
        size_t nn = kernel_report_count(k, SEV_NOTE);
        if (ne + nw + nn == 0)
            snprintf(row[ncols - 1], 48, "clean");
        else
            snprintf(row[ncols - 1], 48, "%zu error, %zu warning, %zu note", ne, nw, nn);
    }
    int width[16] = {0};
    for (size_t i = 0; i <= nk; i++)
        for (size_t c = 0; c < ncols; c++) {
            int w = text_width(cells[i * ncols + c]);
            if (w > width[c])
                width[c] = w;
        }
    if (r->device.name) { /* from a report (merge): one line */
        char line[1200];
        snprintf(line, sizeof line, "%s (%s profile%s%s)", r->device.name,
                 r->device.profile ? r->device.profile : "no",
                 r->device.profile_path ? ": " : "",
                 r->device.profile_path ? r->device.profile_path : "");
        fputs("device: ", out);
        cw_term_fputs(line, out);
        fputc('\n', out);
    }
    const report_provenance *pv = &r->provenance;
    if (pv->valid && pv->shard_count > 1) /* a shard says it is one */
        fprintf(out, "shard %u/%u (%s): %zu of %llu kernels\n", pv->shard_index, pv->shard_count,
                pv->shard_source ? pv->shard_source : "?", r->nkernels,
                (unsigned long long)pv->kernels_total);
    for (size_t i = 0; i <= nk; i++) {
        for (size_t c = 0; c < ncols; c++) {
            pad(out, cells[i * ncols + c], width[c], cols[c].right);
            fputs(c + 1 < ncols ? "  " : "\n", out);
        }
    }
    free(cells);

    /* Findings, grouped by kernel, errors first. */
    for (size_t i = 0; i < nk; i++) {
        const kernel_report *k = &r->kernels[i];
        if (!k->nfindings && !(measured && k->measurement.error) &&
            !(measured && k->divergence.valid && k->divergence.explanation &&
              k->divergence.status != DIV_OK))
            continue;
        /* each field on its own line: a newline in a name, file or
         * message from a plan or report must not forge a line */
        fputc('\n', out);
        cw_term_fputs(k->name, out);
        fputs(":\n", out);
        for (int s = SEV_ERROR; s >= SEV_NOTE; s--)
            for (size_t j = 0; j < k->nfindings; j++) {
                const finding *f = &k->findings[j];
                if ((int)f->sev != s)
                    continue;
                fprintf(out, "  %-7s ", severity_name(f->sev));
                if (f->file) {
                    cw_term_fputs(f->file, out);
                    if (f->line > 0)
                        fprintf(out, ":%d", f->line);
                    fputs(": ", out);
                }
                cw_term_fputs(f->message, out);
                fputs(" [", out);
                cw_term_fputs(f->id, out);
                fputs("]\n", out);
                if (f->hint) {
                    fputs("          hint: ", out);
                    cw_term_fputs(f->hint, out);
                    fputc('\n', out);
                }
            }
        if (measured && k->measurement.error) {
            fputs("  run     ", out);
            cw_term_fputs(k->measurement.error, out);
            fputc('\n', out);
        }
        if (measured && k->divergence.valid && k->divergence.explanation &&
            k->divergence.status != DIV_OK) {
            fprintf(out, "  verdict %s: ", div_status_name(k->divergence.status));
            cw_term_fputs(k->divergence.explanation, out);
            fputc('\n', out);
        }
    }
}

static void csv_field(FILE *out, const char *s)
{
    if (!s) {
        return;
    }
    if (strpbrk(s, ",\"\n")) {
        fputc('"', out);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', out);
            fputc(*s, out);
        }
        fputc('"', out);
    } else {
        fputs(s, out);
    }
}

/* exact: integers in full, other values with 10 digits as in the JSON */
static void csv_num(FILE *out, int valid, double v)
{
    char b[40];
    if (valid && isfinite(v)) {
        units_exact(b, sizeof b, v);
        fputs(b, out);
    }
}

void report_write_csv(const report *r, FILE *out)
{
    fputs("kernel,kind,bound,ideal_us,predicted_us,flops,bytes,confidence,"
          "measured_median_us,mad_us,min_us,max_us,samples,invocations,ratio,"
          "status,errors,warnings,notes,plan,plan_index,host,device\n", out);
    for (size_t i = 0; i < r->nkernels; i++) {
        const kernel_report *k = &r->kernels[i];
        const prediction *p = &k->prediction;
        const measurement *m = &k->measurement;
        const divergence *d = &k->divergence;
        csv_field(out, k->name); fputc(',', out);
        csv_field(out, k->kind); fputc(',', out);
        csv_field(out, p->valid ? p->bound : NULL); fputc(',', out);
        csv_num(out, p->valid, p->ideal_time_us); fputc(',', out);
        csv_num(out, p->valid, p->time_us); fputc(',', out);
        csv_num(out, p->valid, p->flops); fputc(',', out);
        csv_num(out, p->valid, p->bytes); fputc(',', out);
        csv_field(out, p->valid ? confidence_name(p->conf) : NULL); fputc(',', out);
        csv_num(out, m->valid, m->median_us); fputc(',', out);
        csv_num(out, m->valid, m->mad_us); fputc(',', out);
        csv_num(out, m->valid, m->min_us); fputc(',', out);
        csv_num(out, m->valid, m->max_us); fputc(',', out);
        if (m->valid)
            fprintf(out, "%u", m->samples);
        fputc(',', out);
        if (m->has_invocations)
            fprintf(out, "%llu", (unsigned long long)m->invocations);
        fputc(',', out);
        csv_num(out, d->valid && d->status != DIV_UNKNOWN, d->ratio); fputc(',', out);
        csv_field(out, d->valid ? div_status_name(d->status) : "unknown"); fputc(',', out);
        fprintf(out, "%zu,%zu,%zu,", kernel_report_count(k, SEV_ERROR),
                kernel_report_count(k, SEV_WARNING), kernel_report_count(k, SEV_NOTE));
        /* where the row came from: a merged report has one row per device */
        const report_source *src = k->source >= 0 && (size_t)k->source < r->nsources
                                       ? &r->sources[k->source] : NULL;
        const report_provenance *pv = src ? &src->prov : &r->provenance;
        const report_device *dv = src ? &src->device : &r->device;
        csv_field(out, k->plan); fputc(',', out);
        if (k->plan_index >= 0)
            fprintf(out, "%ld", k->plan_index);
        fputc(',', out);
        csv_field(out, pv->node ? pv->node : pv->host); fputc(',', out);
        csv_field(out, dv->uuid ? dv->uuid : dv->name);
        fputc('\n', out);
    }
}

/* A SARIF reportingDescriptor from the findings registry; ids that this
 * build does not register (a report read from disk) keep the id as text. */
static json_t *sarif_rule(const char *id)
{
    static const char *const level[] = {"note", "warning", "error"};
    const finding_info *info = finding_lookup(id);
    if (!info)
        return json_pack("{s:s,s:{s:s}}", "id", id, "shortDescription", "text", id);
    char help[256];
    snprintf(help, sizeof help, "docs/%s in the Clockwork sources", info->anchor);
    return json_pack("{s:s,s:{s:s},s:{s:s},s:{s:s},s:{s:[s]}}", "id", id,
                     "shortDescription", "text", info->description,
                     "help", "text", help,
                     "defaultConfiguration", "level", level[info->default_sev],
                     "properties", "tags", finding_category_name(info->category));
}

char *report_to_sarif_text(const report *r)
{
    json_t *rules = json_array();
    json_t *results = json_array();
    json_t *seen = json_object();
    for (size_t i = 0; i < r->nkernels; i++) {
        const kernel_report *k = &r->kernels[i];
        for (size_t j = 0; j < k->nfindings; j++) {
            const finding *f = &k->findings[j];
            if (!json_object_get(seen, f->id)) {
                json_object_set_new(seen, f->id, json_true());
                json_array_append_new(rules, sarif_rule(f->id));
            }
            static const char *const level[] = {"note", "warning", "error"};
            json_t *res = json_pack("{s:s,s:s,s:{s:s}}", "ruleId", f->id, "level",
                                    level[f->sev], "message", "text",
                                    f->message ? f->message : "");
            json_t *props = json_pack("{s:s}", "kernel", k->name ? k->name : "");
            if (k->plan)
                json_object_set_new(props, "plan", json_string(k->plan));
            if (k->source >= 0 && (size_t)k->source < r->nsources) {
                /* merged: which host and device the finding was made on */
                const report_source *src = &r->sources[k->source];
                const char *where = src->prov.node ? src->prov.node : src->prov.host;
                const report_device *dv = &src->device;
                if (where)
                    json_object_set_new(props, "host", json_string(where));
                if (dv->uuid || dv->name)
                    json_object_set_new(props, "device", json_string(dv->uuid ? dv->uuid : dv->name));
            }
            if (f->hint)
                json_object_set_new(props, "hint", json_string(f->hint));
            json_object_set_new(res, "properties", props);
            if (f->file) {
                json_t *region = f->line > 0 ? json_pack("{s:i}", "startLine", f->line) : NULL;
                json_t *phys = json_pack("{s:{s:s}}", "artifactLocation", "uri", f->file);
                if (region)
                    json_object_set_new(phys, "region", region);
                json_object_set_new(res, "locations",
                                    json_pack("[{s:o}]", "physicalLocation", phys));
            }
            json_array_append_new(results, res);
        }
    }
    json_decref(seen);
    /* no informationUri: the project has no public home to point at, and
     * the property is optional (SARIF 2.1.0 §3.19.2) */
    json_t *root = json_pack(
        "{s:s,s:s,s:[{s:{s:{s:s,s:s,s:o}},s:o}]}",
        "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
        "version", "2.1.0", "runs", "tool", "driver", "name", "clockwork",
        "version", r->tool_version ? r->tool_version : "", "rules", rules,
        "results", results);
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

int report_has_measurements(const report *r)
{
    for (size_t i = 0; i < r->nkernels; i++)
        if (r->kernels[i].measurement.valid || r->kernels[i].measurement.error)
            return 1;
    return 0;
}

const char *report_format_for(const char *format, const char *path)
{
    if (format)
        return format;
    const char *dot = path && strcmp(path, "-") ? strrchr(path, '.') : NULL;
    if (dot && !strcmp(dot, ".sarif"))
        return "sarif";
    if (dot && !strcmp(dot, ".csv"))
        return "csv";
    if (dot && !strcmp(dot, ".json"))
        return "json";
    return "table";
}

int report_write_file(const report *r, const char *path, const char *format,
                      cw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (!format || strcmp(format, "json") == 0) {
        text = report_to_json_text(r);
    } else if (strcmp(format, "sarif") == 0) {
        text = report_to_sarif_text(r);
    } else if (strcmp(format, "table") == 0 || strcmp(format, "csv") == 0) {
        FILE *mem = open_memstream(&text, &len);
        if (!mem) {
            cw_error_set_env(err, path, "out of memory writing the report");
            return -1;
        }
        if (format[0] == 't')
            report_write_table(r, mem, report_has_measurements(r));
        else
            report_write_csv(r, mem);
        fclose(mem);
    } else {
        cw_error_set(err, path, 0, 0, "unknown format '%s' (json, table, csv, sarif)", format);
        return -1;
    }
    if (!text) {
        cw_error_set_env(err, path, "out of memory writing the report");
        return -1;
    }
    if (format[0] == 't' || format[0] == 'c') {
        /* names and messages from plans and reports reach terminals here */
        char *esc = cw_term_escape(text, strlen(text), format[0] == 'c' ? CW_TERM_KEEP_TAB : 0);
        free(text);
        text = esc;
    }
    int rc = cw_write_file_atomic(path, text, strlen(text), err);
    free(text);
    return rc;
}
