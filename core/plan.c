/* plan.c - the plan loader (see plan.h).  jansson checks the syntax; this
 * file checks keys, types and sizes, with positions from jsonpos. */
#include "input.h"
#include "plan.h"
#include "alloc.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jsonpos.h"
#include "report.h" /* cw_strdup */

enum { MAX_PLAN_BYTES = 256 << 20, MAX_KERNELS = 1000000 };

typedef struct loader {
    const char *file;
    const char *dir;
    jsonpos pos;
    cw_error *err;
    int failed;
} loader;

/* ---- "did you mean" ---- */

static size_t levenshtein(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t prev[65], cur[65];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

const char *plan_suggest(const char *word, const char *const *candidates, size_t n)
{
    const char *best = NULL;
    size_t best_d = 3;
    size_t wl = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t d = levenshtein(word, candidates[i]);
        size_t cl = strlen(candidates[i]);
        if (wl >= 3 && cl > wl && strncmp(word, candidates[i], wl) == 0 && d > 1)
            d = 2; /* a prefix ("work" for "workgroups") is a fair guess */
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best;
}

/* ---- errors with positions ---- */

static void fail_at(loader *ld, const char *path, int at_key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail_at(loader *ld, const char *path, int at_key, const char *fmt, ...)
{
    if (ld->failed)
        return;
    ld->failed = 1;
    const jsonpos_entry *e = jsonpos_find(&ld->pos, path);
    int line = 0, col = 0;
    if (e) {
        line = at_key ? e->key_line : e->value_line;
        col = at_key ? e->key_col : e->value_col;
    }
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cw_error_set(ld->err, ld->file, line, col, "%s", text);
}

static void position(loader *ld, const char *path, int *line, int *col)
{
    const jsonpos_entry *e = jsonpos_find(&ld->pos, path);
    *line = e ? e->value_line : 0;
    *col = e ? e->value_col : 0;
}


/* Unknown keys are errors: a typo must not silently change what runs. */
static int check_keys(loader *ld, const char *path, json_t *obj,
                      const char *const *allowed, size_t n, const char *what)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        size_t i;
        for (i = 0; i < n; i++)
            if (strcmp(key, allowed[i]) == 0)
                break;
        if (i < n)
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "/" : "", key);
        const char *s = plan_suggest(key, allowed, n);
        char list[512] = "";
        for (i = 0; i < n; i++) {
            strncat(list, allowed[i], sizeof list - strlen(list) - 1);
            if (i + 1 < n)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
        }
        if (s)
            fail_at(ld, sub, 1, "unknown key '%s' in %s — did you mean '%s'?", key, what, s);
        else
            fail_at(ld, sub, 1, "unknown key '%s' in %s (known keys: %s)", key, what, list);
        return -1;
    }
    return 0;
}

static char *resolve(const loader *ld, const char *rel)
{
    if (rel[0] == '/' || !ld->dir[0])
        return cw_strdup(rel);
    size_t n = strlen(ld->dir) + strlen(rel) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", ld->dir, rel);
    return p;
}

/* The member `key` of o (NULL when absent), its path "path/key" in sub. */
static json_t *member(json_t *o, const char *path, const char *key, char *sub, size_t n)
{
    snprintf(sub, n, "%s/%s", path, key);
    return json_object_get(o, key);
}

static int get_string(loader *ld, const char *path, json_t *v, char **out)
{
    if (!json_is_string(v)) {
        fail_at(ld, path, 0, "'%s' must be a string, not %s", strrchr(path, '/') + 1,
                jsonpos_type_phrase(v));
        return -1;
    }
    if (json_string_length(v) == 0) {
        fail_at(ld, path, 0, "'%s' must not be empty", strrchr(path, '/') + 1);
        return -1;
    }
    *out = cw_strdup(json_string_value(v));
    return 0;
}

/* A non-negative integer no larger than max. */
static int get_count(loader *ld, const char *path, json_t *v, uint64_t max,
                     uint64_t *out)
{
    /* "workgroups[0]", not "0": an array element is named by its array */
    char name[160];
    const char *last = strrchr(path, '/') + 1;
    if (*last >= '0' && *last <= '9' && last - 1 > path) {
        const char *prev = last - 1;
        while (prev > path && prev[-1] != '/')
            prev--;
        snprintf(name, sizeof name, "%.*s[%s]", (int)(last - 1 - prev), prev, last);
    } else {
        snprintf(name, sizeof name, "%s", last);
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d != floor(d)) {
            fail_at(ld, path, 0, "'%s' must be a whole number, not %g", name, d);
            return -1;
        }
        fail_at(ld, path, 0, "'%s' must be written as an integer (no fraction or exponent), not %g",
                name, d);
        return -1;
    }
    if (!json_is_integer(v)) {
        fail_at(ld, path, 0, "'%s' must be an integer, not %s", name, jsonpos_type_phrase(v));
        return -1;
    }
    json_int_t i = json_integer_value(v);
    if (i < 0) {
        fail_at(ld, path, 0, "'%s' must not be negative (got %lld)", name, (long long)i);
        return -1;
    }
    if ((uint64_t)i > max) {
        fail_at(ld, path, 0, "'%s' is too large: %lld (at most %llu)", name,
                (long long)i, (unsigned long long)max);
        return -1;
    }
    *out = (uint64_t)i;
    return 0;
}

/* An object of name -> number (push constants, spec constants, args). */
static int get_values(loader *ld, const char *path, json_t *obj, int integers_only,
                      plan_value **out, size_t *n)
{
    if (!json_is_object(obj)) {
        fail_at(ld, path, 0, "'%s' must be an object of name: number, not %s",
                strrchr(path, '/') + 1, jsonpos_type_phrase(obj));
        return -1;
    }
    size_t cnt = json_object_size(obj);
    plan_value *vals = xcalloc(cnt ? cnt : 1, sizeof *vals);
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", path, key);
        plan_value *pv = &vals[k];
        if (json_is_integer(v)) {
            pv->is_integer = 1;
            pv->ivalue = json_integer_value(v);
            pv->value = (double)pv->ivalue;
        } else if (json_is_real(v) && !integers_only) {
            pv->value = json_real_value(v);
        } else if (json_is_boolean(v) && !integers_only) {
            pv->is_integer = 1;
            pv->ivalue = json_is_true(v);
            pv->value = (double)pv->ivalue;
        } else {
            fail_at(ld, sub, 0, "'%s' must be %s, not %s", key,
                    integers_only ? "an integer" : "a number", jsonpos_type_phrase(v));
            for (size_t j = 0; j < k; j++)
                free(vals[j].key);
            free(vals);
            return -1;
        }
        pv->key = cw_strdup(key);
        position(ld, sub, &pv->line, &pv->column);
        k++;
    }
    *out = vals;
    *n = k;
    return 0;
}

static int check_file(loader *ld, const char *path, const char *resolved, const char *what);

/* "init": [v0, v1, ...] (element values) or {"file": "raw.bin"}. */
static int parse_init_data(loader *ld, const char *path, json_t *v, plan_buffer *b)
{
    char sub[1200];
    if (json_is_array(v)) {
        size_t n = json_array_size(v);
        if (n > ((size_t)1 << 24)) {
            fail_at(ld, path, 0, "'init' lists %zu values; at most 16777216 (use a file)", n);
            return -1;
        }
        b->init_values = xcalloc(n ? n : 1, sizeof *b->init_values);
        for (size_t i = 0; i < n; i++) {
            json_t *x = json_array_get(v, i);
            plan_value *pv = &b->init_values[i];
            snprintf(sub, sizeof sub, "%s/%zu", path, i);
            if (json_is_integer(x)) {
                pv->is_integer = 1;
                pv->ivalue = (int64_t)json_integer_value(x);
                pv->value = (double)pv->ivalue;
            } else if (json_is_real(x)) {
                pv->value = json_real_value(x);
            } else if (json_is_boolean(x)) {
                pv->is_integer = 1;
                pv->ivalue = json_is_true(x);
                pv->value = (double)pv->ivalue;
            } else {
                fail_at(ld, sub, 0, "each init value must be a number, not %s",
                        jsonpos_type_phrase(x));
                return -1;
            }
            position(ld, sub, &pv->line, &pv->column);
            b->ninit_values++;
        }
        b->init = PLAN_INIT_VALUES;
        return 0;
    }
    json_t *f = json_object_get(v, "file");
    if (json_object_size(v) != 1 || !f) {
        fail_at(ld, path, 0, "an 'init' object must be {\"file\": \"path\"} (raw bytes)");
        return -1;
    }
    snprintf(sub, sizeof sub, "%s/file", path);
    if (!json_is_string(f)) {
        fail_at(ld, sub, 0, "'file' must be a string, not %s", jsonpos_type_phrase(f));
        return -1;
    }
    b->init_file = resolve(ld, json_string_value(f));
    if (check_file(ld, sub, b->init_file, "init file"))
        return -1;
    b->init = PLAN_INIT_FILE;
    return 0;
}

static int parse_init(loader *ld, const char *path, json_t *v, plan_buffer *b)
{
    if (json_is_array(v) || json_is_object(v))
        return parse_init_data(ld, path, v, b);
    if (json_is_number(v)) {
        b->init = PLAN_INIT_CONST;
        b->init_value = json_number_value(v);
        return 0;
    }
    if (json_is_string(v)) {
        static const char *const names[] = {"random", "zero", "ramp"};
        const char *s = json_string_value(v);
        for (int i = 0; i < 3; i++)
            if (strcmp(s, names[i]) == 0) {
                b->init = (plan_init)i;
                return 0;
            }
        const char *sug = plan_suggest(s, names, 3);
        fail_at(ld, path, 0, "unknown init '%s'%s%s%s (random, zero, ramp, a number, a list "
                "of values or {\"file\": ...})", s,
                sug ? " — did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
        return -1;
    }
    fail_at(ld, path, 0, "'init' must be \"random\", \"zero\", \"ramp\", a number, a list of "
            "values or {\"file\": ...}, not %s",
            jsonpos_type_phrase(v));
    return -1;
}

typedef struct binding_key {
    uint32_t set, binding;
    size_t index;
} binding_key;

static int binding_key_cmp(const void *x, const void *y)
{
    const binding_key *a = x, *b = y;
    if (a->set != b->set)
        return a->set < b->set ? -1 : 1;
    if (a->binding != b->binding)
        return a->binding < b->binding ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* A set and binding given twice: the first repeat in plan order is named,
 * with the line of its first occurrence (sorted: linear after the sort,
 * where comparing every pair took minutes for 300k buffers). */
static int check_duplicate_bindings(loader *ld, const char *path, const plan_kernel *k)
{
    if (k->nbuffers < 2)
        return 0;
    binding_key *keys = xcalloc(k->nbuffers, sizeof *keys);
    for (size_t i = 0; i < k->nbuffers; i++)
        keys[i] = (binding_key){k->buffers[i].set, k->buffers[i].binding, i};
    qsort(keys, k->nbuffers, sizeof *keys, binding_key_cmp);
    size_t repeat = SIZE_MAX, first = 0;
    for (size_t i = 1; i < k->nbuffers; i++)
        if (keys[i].set == keys[i - 1].set && keys[i].binding == keys[i - 1].binding &&
            (i < 2 || keys[i - 2].set != keys[i].set || keys[i - 2].binding != keys[i].binding) &&
            keys[i].index < repeat) {
            repeat = keys[i].index;
            first = keys[i - 1].index;
        }
    free(keys);
    if (repeat == SIZE_MAX)
        return 0;
    char bp[1100];
    snprintf(bp, sizeof bp, "%s/%zu", path, repeat);
    const plan_buffer *b = &k->buffers[repeat];
    fail_at(ld, bp, 0, "set %u binding %u is given twice (first at line %d)", b->set,
            b->binding, k->buffers[first].line);
    return -1;
}

static int parse_buffers(loader *ld, const char *path, json_t *arr, plan_kernel *k)
{
    static const char *const keys[] = {"set", "binding", "elements", "bytes", "init",
                                       "description"};
    if (!json_is_array(arr)) {
        fail_at(ld, path, 0, "'buffers' must be an array, not %s", jsonpos_type_phrase(arr));
        return -1;
    }
    size_t n = json_array_size(arr);
    k->buffers = xcalloc(n ? n : 1, sizeof *k->buffers);
    for (size_t i = 0; i < n; i++) {
        json_t *bo = json_array_get(arr, i);
        char bp[1024], sub[1100];
        snprintf(bp, sizeof bp, "%s/%zu", path, i);
        if (!json_is_object(bo)) {
            fail_at(ld, bp, 0, "each buffer must be an object, not %s", jsonpos_type_phrase(bo));
            return -1;
        }
        if (check_keys(ld, bp, bo, keys, sizeof keys / sizeof *keys, "a buffer"))
            return -1;
        plan_buffer *b = &k->buffers[k->nbuffers++];
        position(ld, bp, &b->line, &b->column);
        uint64_t v;
        json_t *x;
        if ((x = member(bo, bp, "set", sub, sizeof sub))) {
            if (get_count(ld, sub, x, UINT32_MAX, &v))
                return -1;
            b->set = (uint32_t)v;
        }
        if ((x = member(bo, bp, "binding", sub, sizeof sub))) {
            if (get_count(ld, sub, x, UINT32_MAX, &v))
                return -1;
            b->binding = (uint32_t)v;
        } else if (k->kind == PLAN_KERNEL_GPU) {
            fail_at(ld, bp, 0, "a buffer needs a 'binding'");
            return -1;
        } else {
            b->binding = (uint32_t)i; /* CPU kernels: plan order */
        }
        json_t *el = json_object_get(bo, "elements"), *by = json_object_get(bo, "bytes");
        if (el && by) {
            snprintf(sub, sizeof sub, "%s/bytes", bp);
            fail_at(ld, sub, 1, "give either 'bytes' or 'elements', not both");
            return -1;
        }
        if (!el && !by) {
            fail_at(ld, bp, 0, "a buffer needs 'elements' or 'bytes'");
            return -1;
        }
        /* Sizes up to 2^62 so that later arithmetic has headroom; the
         * verifier checks elements x stride with checked multiplication. */
        const uint64_t max_size = (uint64_t)1 << 62;
        if (el) {
            snprintf(sub, sizeof sub, "%s/elements", bp);
            if (get_count(ld, sub, el, max_size, &b->elements))
                return -1;
            b->has_elements = 1;
        } else {
            snprintf(sub, sizeof sub, "%s/bytes", bp);
            if (get_count(ld, sub, by, max_size, &b->bytes))
                return -1;
            b->has_bytes = 1;
        }
        if ((x = member(bo, bp, "init", sub, sizeof sub)) &&
            parse_init(ld, sub, x, b))
            return -1;
    }
    return k->kind == PLAN_KERNEL_GPU ? check_duplicate_bindings(ld, path, k) : 0;
}

static int check_file(loader *ld, const char *path, const char *resolved, const char *what)
{
    struct stat st;
    if (stat(resolved, &st) != 0) {
        fail_at(ld, path, 0, "%s '%s' not found (%s; paths are relative to the plan file)",
                what, resolved, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        fail_at(ld, path, 0, "%s '%s' is not a regular file", what, resolved);
        return -1;
    }
    return 0;
}

static int parse_expect(loader *ld, const char *path, json_t *v, plan_kernel *k)
{
    static const char *const keys[] = {"min_efficiency"};
    if (!json_is_object(v)) {
        fail_at(ld, path, 0, "'expect' must be an object, not %s", jsonpos_type_phrase(v));
        return -1;
    }
    if (check_keys(ld, path, v, keys, 1, "'expect'"))
        return -1;
    json_t *me = json_object_get(v, "min_efficiency");
    if (me) {
        char sub[1100];
        snprintf(sub, sizeof sub, "%s/min_efficiency", path);
        if (!json_is_number(me) || json_number_value(me) < 0 || json_number_value(me) > 1) {
            fail_at(ld, sub, 0, "'min_efficiency' must be a number in [0, 1]");
            return -1;
        }
        k->min_efficiency = json_number_value(me);
    }
    return 0;
}

static int parse_gpu_kernel(loader *ld, const char *kp, json_t *ko, plan_kernel *k)
{
    static const char *const keys[] = {"name", "kind", "shader", "entry", "workgroups",
                                       "push", "spec", "buffers", "expect", "description"};
    if (check_keys(ld, kp, ko, keys, sizeof keys / sizeof *keys, "a GPU kernel"))
        return -1;
    char sub[1100];
    json_t *x = member(ko, kp, "shader", sub, sizeof sub);
    if (!x) {
        fail_at(ld, kp, 0, "kernel '%s' has no 'shader' (a .comp/.glsl or .spv file)", k->name);
        return -1;
    }
    if (get_string(ld, sub, x, &k->shader))
        return -1;
    k->shader_path = resolve(ld, k->shader);
    if (check_file(ld, sub, k->shader_path, "shader"))
        return -1;
    if ((x = member(ko, kp, "entry", sub, sizeof sub))) {
        if (get_string(ld, sub, x, &k->entry))
            return -1;
    } else {
        k->entry = cw_strdup("main");
    }
    x = member(ko, kp, "workgroups", sub, sizeof sub);
    if (!x) {
        fail_at(ld, kp, 0, "kernel '%s' has no 'workgroups' ([x, y, z] dispatch counts)", k->name);
        return -1;
    }
    if (!json_is_array(x) || json_array_size(x) < 1 || json_array_size(x) > 3) {
        fail_at(ld, sub, 0, "'workgroups' must be an array of 1 to 3 integers");
        return -1;
    }
    k->workgroups[0] = k->workgroups[1] = k->workgroups[2] = 1;
    for (size_t i = 0; i < json_array_size(x); i++) {
        char ep[1200];
        snprintf(ep, sizeof ep, "%s/%zu", sub, i);
        uint64_t v;
        if (get_count(ld, ep, json_array_get(x, i), UINT32_MAX, &v))
            return -1;
        if (v == 0) {
            fail_at(ld, ep, 0, "a workgroup count must be at least 1");
            return -1;
        }
        k->workgroups[i] = (uint32_t)v;
    }
    if ((x = member(ko, kp, "push", sub, sizeof sub)) &&
        get_values(ld, sub, x, 0, &k->push, &k->npush))
        return -1;
    if ((x = member(ko, kp, "spec", sub, sizeof sub)) &&
        get_values(ld, sub, x, 0, &k->spec, &k->nspec))
        return -1;
    return 0;
}

static int parse_cpu_kernel(loader *ld, const char *kp, json_t *ko, plan_kernel *k)
{
    static const char *const keys[] = {"name", "kind", "library", "symbol", "args",
                                       "buffers", "work", "threads", "expect",
                                       "description"};
    static const char *const work_keys[] = {"flops", "bytes"};
    if (check_keys(ld, kp, ko, keys, sizeof keys / sizeof *keys, "a CPU kernel"))
        return -1;
    char sub[1100];
    json_t *x = member(ko, kp, "library", sub, sizeof sub);
    if (!x) {
        fail_at(ld, kp, 0, "CPU kernel '%s' has no 'library' (a shared object)", k->name);
        return -1;
    }
    if (get_string(ld, sub, x, &k->library))
        return -1;
    /* Relative to the plan first (as every path of a plan); a bare name that
     * is not there is left to the system search (LD_LIBRARY_PATH, the
     * loader cache), which check and run both do through dlopen in a child
     * process (cpu_isolate.h).  A path always carries a '/', so dlopen never
     * searches for a file that is next to the plan. */
    k->library_path = resolve(ld, k->library);
    struct stat lst;
    if (!strchr(k->library, '/') && stat(k->library_path, &lst) != 0) {
        free(k->library_path);
        k->library_path = cw_strdup(k->library);
    } else {
        if (check_file(ld, sub, k->library_path, "library"))
            return -1;
        if (!strchr(k->library_path, '/')) {
            char *dotted = xmalloc(strlen(k->library_path) + 3);
            sprintf(dotted, "./%s", k->library_path);
            free(k->library_path);
            k->library_path = dotted;
        }
    }
    x = member(ko, kp, "symbol", sub, sizeof sub);
    if (!x) {
        fail_at(ld, kp, 0, "CPU kernel '%s' has no 'symbol'", k->name);
        return -1;
    }
    if (get_string(ld, sub, x, &k->symbol))
        return -1;
    if ((x = member(ko, kp, "args", sub, sizeof sub)) &&
        get_values(ld, sub, x, 1, &k->args, &k->nargs))
        return -1;
    if ((x = member(ko, kp, "work", sub, sizeof sub))) {
        if (!json_is_object(x)) {
            fail_at(ld, sub, 0, "'work' must be an object {\"flops\": \"...\", \"bytes\": \"...\"}");
            return -1;
        }
        if (check_keys(ld, sub, x, work_keys, 2, "'work'"))
            return -1;
        json_t *f = json_object_get(x, "flops"), *b = json_object_get(x, "bytes");
        char wp[1200];
        snprintf(wp, sizeof wp, "%s/flops", sub);
        if (f && get_string(ld, wp, f, &k->work_flops))
            return -1;
        snprintf(wp, sizeof wp, "%s/bytes", sub);
        if (b && get_string(ld, wp, b, &k->work_bytes))
            return -1;
    }
    if ((x = member(ko, kp, "threads", sub, sizeof sub))) {
        uint64_t t;
        if (get_count(ld, sub, x, 4096, &t))
            return -1;
        k->threads = (int)t;
    }
    return 0;
}

static int parse_kernel(loader *ld, size_t idx, json_t *ko, plan_kernel *k)
{
    char kp[64], sub[128];
    snprintf(kp, sizeof kp, "kernels/%zu", idx);
    if (!json_is_object(ko)) {
        fail_at(ld, kp, 0, "each kernel must be an object, not %s", jsonpos_type_phrase(ko));
        return -1;
    }
    position(ld, kp, &k->line, &k->column);
    k->min_efficiency = -1;
    json_t *x = member(ko, kp, "kind", sub, sizeof sub);
    if (x) {
        if (!json_is_string(x) || (strcmp(json_string_value(x), "gpu") != 0 &&
                                   strcmp(json_string_value(x), "cpu") != 0)) {
            fail_at(ld, sub, 0, "'kind' must be \"gpu\" or \"cpu\"");
            return -1;
        }
        k->kind = json_string_value(x)[0] == 'c' ? PLAN_KERNEL_CPU : PLAN_KERNEL_GPU;
    }
    if ((x = member(ko, kp, "name", sub, sizeof sub))) {
        if (get_string(ld, sub, x, &k->name))
            return -1;
    } else {
        /* default: the shader's or symbol's base name */
        json_t *s = json_object_get(ko, k->kind == PLAN_KERNEL_CPU ? "symbol" : "shader");
        const char *base = json_is_string(s) ? json_string_value(s) : "kernel";
        const char *slash = strrchr(base, '/');
        k->name = cw_strdup(slash ? slash + 1 : base);
        char *dot = strrchr(k->name, '.');
        if (dot && dot != k->name)
            *dot = 0;
    }
    int rc = k->kind == PLAN_KERNEL_CPU ? parse_cpu_kernel(ld, kp, ko, k)
                                        : parse_gpu_kernel(ld, kp, ko, k);
    if (rc)
        return rc;
    /* both kinds bind buffers the same way (the GPU by binding, the CPU
     * in plan order) */
    if ((x = member(ko, kp, "buffers", sub, sizeof sub)) && parse_buffers(ld, sub, x, k))
        return -1;
    if ((x = member(ko, kp, "expect", sub, sizeof sub)) &&
        parse_expect(ld, sub, x, k))
        return -1;
    return 0;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return cw_strdup("");
    if (slash == path)
        return cw_strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

int plan_load_text(const char *path, const char *text, size_t len, plan *out,
                   cw_error *err)
{
    memset(out, 0, sizeof *out);
    /* jansson stops at a NUL byte; a plan is text, so say where it is */
    const char *nul = memchr(text, 0, len);
    if (nul) {
        int line = 1, col = 1;
        for (const char *c = text; c < nul; c++, col++)
            if (*c == '\n') {
                line++;
                col = 0;
            }
        cw_error_set(err, path, line, col, "the plan contains a NUL byte: it is not a text file");
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root && (json_error_code(&je) == json_error_out_of_memory || !je.text[0])) {
        cw_error_set_env(err, path, "out of memory reading the plan (%zu bytes)", len);
        return -1;
    }
    if (!root) {
        cw_error_set(err, path, je.line, je.column, "invalid JSON: %s", je.text);
        return -1;
    }
    loader ld = {.file = path, .err = err};
    out->path = cw_strdup(path);
    out->dir = dir_of(path);
    ld.dir = out->dir;
    jsonpos_index(text, len, &ld.pos);

    static const char *const top_keys[] = {"kernels", "name", "description"};
    if (!json_is_object(root)) {
        fail_at(&ld, "", 0, "a plan must be a JSON object with a 'kernels' array, not %s",
                jsonpos_type_phrase(root));
        goto done;
    }
    if (check_keys(&ld, "", root, top_keys, 3, "the plan"))
        goto done;
    json_t *ks = json_object_get(root, "kernels");
    if (!ks) {
        fail_at(&ld, "", 0, "the plan has no 'kernels' array");
        goto done;
    }
    if (!json_is_array(ks)) {
        fail_at(&ld, "kernels", 0, "'kernels' must be an array, not %s", jsonpos_type_phrase(ks));
        goto done;
    }
    size_t n = json_array_size(ks);
    if (n == 0) {
        fail_at(&ld, "kernels", 0, "the kernel list is empty: add at least one kernel");
        goto done;
    }
    if (n > MAX_KERNELS) {
        fail_at(&ld, "kernels", 0, "too many kernels (%zu; at most %d)", n, MAX_KERNELS);
        goto done;
    }
    out->kernels = xcalloc(n, sizeof *out->kernels);
    for (size_t i = 0; i < n && !ld.failed; i++) {
        plan_kernel *k = &out->kernels[out->nkernels++];
        k->plan_path = out->path;
        parse_kernel(&ld, i, json_array_get(ks, i), k);
    }
done:
    jsonpos_free(&ld.pos);
    json_decref(root);
    if (ld.failed) {
        plan_free(out);
        return -1;
    }
    return 0;
}

static int parse_plan(const char *path, const char *text, size_t len, void *out,
                      cw_error *err)
{
    return plan_load_text(path, text, len, out, err);
}

int plan_load(const char *path, plan *out, cw_error *err)
{
    memset(out, 0, sizeof *out);
    return cw_parse_input(path, "plan", 0, MAX_PLAN_BYTES, 1, parse_plan, out, err);
}

static void free_values(plan_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].key);
    free(v);
}

/* A kernel's owned strings. */
static const size_t kernel_strs[] = {
    offsetof(plan_kernel, name),         offsetof(plan_kernel, shader),
    offsetof(plan_kernel, shader_path),  offsetof(plan_kernel, entry),
    offsetof(plan_kernel, library),      offsetof(plan_kernel, library_path),
    offsetof(plan_kernel, symbol),       offsetof(plan_kernel, work_flops),
    offsetof(plan_kernel, work_bytes),
};

void plan_free(plan *p)
{
    for (size_t i = 0; i < p->nkernels; i++) {
        plan_kernel *k = &p->kernels[i];
        cw_free_fields(k, kernel_strs, sizeof kernel_strs / sizeof *kernel_strs);
        free_values(k->push, k->npush);
        free_values(k->spec, k->nspec);
        for (size_t j = 0; j < k->nbuffers; j++) {
            free_values(k->buffers[j].init_values, k->buffers[j].ninit_values);
            free(k->buffers[j].init_file);
        }
        free(k->buffers);
        free_values(k->args, k->nargs);
    }
    free(p->kernels);
    free(p->path);
    free(p->dir);
    memset(p, 0, sizeof *p);
}

const plan_value *plan_kernel_push(const plan_kernel *k, const char *name)
{
    for (size_t i = 0; i < k->npush; i++)
        if (strcmp(k->push[i].key, name) == 0)
            return &k->push[i];
    return NULL;
}

const plan_buffer *plan_kernel_buffer(const plan_kernel *k, uint32_t set, uint32_t binding)
{
    for (size_t i = 0; i < k->nbuffers; i++)
        if (k->buffers[i].set == set && k->buffers[i].binding == binding)
            return &k->buffers[i];
    return NULL;
}
