/* reports.c - see reports.h. */
#include "reports.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "fleet.h"
#include "input.h"
#include "merge.h"
#include "merge_cmd.h"

/* The reports tui_reports_detect read whole, for tui_reports_load to take:
 * each report is parsed once at start-up (the sniff and the load parsed it
 * each). */
static struct read_ahead {
    char *path;
    report r;
} *ahead;
static size_t nahead;

static void ahead_clear(void)
{
    for (size_t i = 0; i < nahead; i++) {
        free(ahead[i].path);
        report_free(&ahead[i].r);
    }
    free(ahead);
    ahead = NULL;
    nahead = 0;
}

/* Moves the report of path that the last detection read into out; 0 when
 * it read none. */
static int ahead_take(const char *path, report *out)
{
    for (size_t i = 0; i < nahead; i++)
        if (ahead[i].path && strcmp(ahead[i].path, path) == 0) {
            *out = ahead[i].r;
            memset(&ahead[i].r, 0, sizeof ahead[i].r);
            free(ahead[i].path);
            ahead[i].path = NULL;
            return 1;
        }
    return 0;
}

int tui_reports_detect(int argc, char *const *argv)
{
    ahead_clear();
    if (argc < 1)
        return 0;
    ahead = xcalloc((size_t)argc, sizeof *ahead);
    for (int i = 0; i < argc; i++) {
        /* only a regular file is sniffed: reading a FIFO with no writer
         * blocked forever, and a pipe read here would be empty later; the
         * plan loader names what any other file is */
        struct stat st;
        char *text;
        size_t len;
        cw_error ignored;
        if (stat(argv[i], &st) != 0 || !S_ISREG(st.st_mode) ||
            cw_read_input(argv[i], "report", 0, (size_t)1 << 31, 0, &text, &len, &ignored)) {
            ahead_clear();
            return 0;
        }
        size_t bom = cw_utf8_bom_length(text, len);
        const char *body = text + bom;
        size_t blen = len - bom;
        json_error_t je;
        /* parsed as report_read_text parses it (no NUL, no duplicate key),
         * so that a report need not be parsed again; else as before */
        json_t *root = memchr(body, 0, blen) ? NULL
                       : json_loadb(body, blen, JSON_REJECT_DUPLICATES, &je);
        int strict = root != NULL;
        /* the lenient parse only for what the strict one refuses by rule
         * (a NUL, a repeated key): after running out of memory a second
         * parse would fragment the heap, and the plan loader that reads
         * the file next could no longer say so itself */
        if (!root && (memchr(body, 0, blen) ||
                      json_error_code(&je) == json_error_duplicate_key))
            root = json_loadb(body, blen, 0, &je);
        int is = json_is_object(root) && json_object_get(root, "schema") &&
                 json_object_get(root, "tool");
        /* a report that does not read is left to the load, which names
         * its error */
        if (is && strict &&
            report_read_json(argv[i], body, blen, root, &ahead[nahead].r, &ignored) == 0)
            ahead[nahead++].path = cw_strdup(argv[i]);
        json_decref(root);
        free(text);
        if (!is) {
            ahead_clear();
            return 0;
        }
    }
    return 1;
}

/* Group of a kernel: its source's host/device, or 0 for a plain report. */
typedef struct group {
    char key[512];   /* merge_device_key() */
    char where[128]; /* node or host */
    size_t on_host;  /* devices of the same host before this one */
    char label[160];
    size_t n;
} group;

/* "gpu0" for the only device of host gpu0, "gpu0/1" for its second; the
 * device itself (name, uuid) is in the detail and device views. */
static void group_key(const report *r, long source, char *key, size_t nkey, char *where,
                      size_t nwhere)
{
    const report_provenance *p = source >= 0 ? &r->sources[source].prov : &r->provenance;
    const report_device *d = source >= 0 ? &r->sources[source].device : &r->device;
    merge_device_key(p, d, key, nkey);
    snprintf(where, nwhere, "%s", p->node ? p->node : p->host ? p->host : "?");
}

static size_t group_of(group *g, size_t *ng, const char *key, const char *where)
{
    for (size_t i = 0; i < *ng; i++)
        if (!strcmp(g[i].key, key))
            return i;
    size_t same_host = 0;
    for (size_t i = 0; i < *ng; i++)
        same_host += !strcmp(g[i].where, where);
    group *n = &g[(*ng)++];
    snprintf(n->key, sizeof n->key, "%s", key);
    snprintf(n->where, sizeof n->where, "%s", where);
    n->on_host = same_host;
    return (size_t)(n - g);
}

static void label_groups(group *g, size_t ng)
{
    for (size_t i = 0; i < ng; i++) {
        int several = 0;
        for (size_t j = 0; j < ng; j++)
            several |= j != i && !strcmp(g[j].where, g[i].where);
        if (several)
            snprintf(g[i].label, sizeof g[i].label, "%s/%zu", g[i].where, g[i].on_host);
        else
            snprintf(g[i].label, sizeof g[i].label, "%s", g[i].where);
    }
}

/* ", outlier gpu1/0" for the devices the fleet view flags */
static void fleet_outliers(const report *r, const group *g, size_t ng, char *buf, size_t n)
{
    json_t *f = r->fleet_json ? json_loads(r->fleet_json, 0, NULL) : NULL;
    size_t i, count = 0;
    json_t *d;
    json_array_foreach(json_object_get(f, "devices"), i, d) {
        const char *key = json_string_value(json_object_get(d, "device"));
        if (!key || !json_is_true(json_object_get(d, "outlier")))
            continue;
        for (size_t j = 0; j < ng; j++)
            if (!strcmp(g[j].key, key)) {
                size_t len = strlen(buf);
                snprintf(buf + len, n - len, "%s%s", count++ ? " " : ", outlier ", g[j].label);
            }
    }
    json_decref(f);
}

static void post(tui_state *st, tui_msg *m)
{
    state_apply(st, m);
    state_msg_free(m);
}

static void fold_in(tui_state *st, const report *r)
{
    size_t nk = r->nkernels;
    group *groups = xcalloc(r->nsources + 1, sizeof *groups);
    size_t ng = 0, *gk = xcalloc(nk + 1, sizeof *gk);
    for (size_t i = 0; i < nk; i++) {
        char key[512], where[128];
        long s = r->kernels[i].source < (long)r->nsources ? r->kernels[i].source : -1;
        group_key(r, s, key, sizeof key, where, sizeof where);
        gk[i] = group_of(groups, &ng, key, where);
    }
    label_groups(groups, ng);
    tui_msg m = {.kind = MSG_DEVICE, .dev = xcalloc(1, sizeof *m.dev)};
    report_device_copy(m.dev, &r->device);
    post(st, &m);
    for (size_t g = 0; g < ng; g++) {
        char **names = xcalloc(nk + 1, sizeof *names);
        size_t n = 0;
        for (size_t i = 0; i < nk; i++)
            if (gk[i] == g)
                names[n++] = ng > 1 ? cw_asprintf("%s: %s", groups[g].label,
                                                  r->kernels[i].name)
                                    : cw_strdup(r->kernels[i].name);
        m = (tui_msg){.kind = MSG_KERNELS, .plan = (int)g, .names = names, .nnames = n};
        post(st, &m);
    }
    for (size_t i = 0; i < nk; i++) {
        const kernel_report *k = &r->kernels[i];
        tui_msg km = {.plan = (int)gk[i], .index = (int)groups[gk[i]].n++,
                      .kr = xcalloc(1, sizeof *km.kr)};
        kernel_report_copy(km.kr, k);
        if (ng > 1) {
            free(km.kr->name);
            km.kr->name = cw_asprintf("%s: %s", groups[gk[i]].label, k->name);
        }
        int measured = k->measurement.valid || k->measurement.error;
        km.kind = measured ? MSG_MEASURED : MSG_STATIC;
        km.state = KS_CHECKED;
        post(st, &km);
    }
    char text[256], outliers[160] = "";
    fleet_outliers(r, groups, ng, outliers, sizeof outliers);
    snprintf(text, sizeof text, "%zu report%s, %zu device%s%s (read-only)",
             r->nsources ? r->nsources : 1, r->nsources > 1 ? "s" : "", ng, ng == 1 ? "" : "s",
             outliers);
    m = (tui_msg){.kind = MSG_SAMPLING, .text = cw_strdup(text)};
    post(st, &m);
    free(gk);
    free(groups);
}

int tui_reports_load(tui_state *st, char *const *files, size_t n, double tolerance, char *err,
                     size_t errlen)
{
    report *in = xcalloc(n + 1, sizeof *in);
    size_t nread = 0;
    int rc = 0;
    cw_error e;
    cw_error_clear(&e);
    for (; nread < n; nread++)
        if (!ahead_take(files[nread], &in[nread]) &&
            (rc = report_read_file(files[nread], &in[nread], &e)) != 0)
            break;
    ahead_clear();
    report merged;
    int have_merged = 0;
    if (!rc && (n > 1 || !in[0].nsources)) {
        rc = merge_reports(in, (const char *const *)files, n, &merged, &e);
        have_merged = rc == 0;
        if (have_merged) {
            merge_exit_codes(in, n, &merged);
            fleet_analyse(&merged, tolerance);
        }
        else if (n == 1)
            rc = 0; /* one shard of a set: shown as it is */
    }
    if (!rc) {
        st->measure = 0; /* nothing to run: the numbers are the reports' */
        fold_in(st, have_merged ? &merged : &in[0]);
    } else {
        cw_error_format(&e, err, errlen);
    }
    if (have_merged)
        report_free(&merged);
    for (size_t i = 0; i < nread; i++)
        report_free(&in[i]);
    free(in);
    return rc ? CW_STATUS_INPUT : 0;
}
