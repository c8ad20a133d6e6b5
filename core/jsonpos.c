/* jsonpos.c - see jsonpos.h.  A small recursive-descent walk; depth is
 * bounded so hostile nesting cannot exhaust the stack. */
#include "jsonpos.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64, MAX_PATH = 1024 };

typedef struct walker {
    const char *s;
    size_t len, i;
    int line, col;
    jsonpos *ix;
    int failed;
} walker;

static void adv(walker *w)
{
    if (w->i >= w->len)
        return;
    if (w->s[w->i] == '\n') {
        w->line++;
        w->col = 1;
    } else if (((unsigned char)w->s[w->i] & 0xC0) != 0x80) {
        w->col++;
    }
    w->i++;
}

static void skip_ws(walker *w)
{
    while (w->i < w->len && strchr(" \t\r\n", w->s[w->i]) && w->s[w->i])
        adv(w);
}

static void record(walker *w, const char *path, int kl, int kc, int vl, int vc)
{
    jsonpos *ix = w->ix;
    if (ix->n == ix->cap) {
        size_t nc = ix->cap ? ix->cap * 2 : 64;
        jsonpos_entry *ne = realloc(ix->entries, nc * sizeof *ne);
        if (!ne) {
            w->failed = 1;
            return;
        }
        ix->entries = ne;
        ix->cap = nc;
    }
    char *p = strdup(path);
    if (!p) {
        w->failed = 1;
        return;
    }
    ix->entries[ix->n++] = (jsonpos_entry){p, kl, kc, vl, vc};
}

static int hex4(const walker *w, size_t at, unsigned *out)
{
    unsigned v = 0;
    for (size_t k = 0; k < 4; k++) {
        if (at + k >= w->len)
            return -1;
        char c = w->s[at + k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static void put_utf8(char *buf, size_t size, size_t *n, unsigned cp)
{
    char tmp[4];
    size_t k = cw_utf8_encode(cp, tmp);
    for (size_t i = 0; i < k && *n + 1 < size; i++)
        buf[(*n)++] = tmp[i];
}

/* Reads a string token into buf (truncated), decoding escapes as jansson
 * does, so that a key written "\u0070ush" is found as "push". */
static void read_string(walker *w, char *buf, size_t size)
{
    size_t n = 0;
    adv(w); /* opening quote */
    while (w->i < w->len && w->s[w->i] != '"') {
        char c = w->s[w->i];
        if (c != '\\') {
            if (n + 1 < size)
                buf[n++] = c;
            adv(w);
            continue;
        }
        adv(w);
        if (w->i >= w->len)
            break;
        char e = w->s[w->i];
        unsigned cp;
        if (e == 'u' && hex4(w, w->i + 1, &cp) == 0) {
            for (int k = 0; k < 5; k++)
                adv(w);
            unsigned lo;
            if (cp >= 0xD800 && cp <= 0xDBFF && w->i + 1 < w->len && w->s[w->i] == '\\' &&
                w->s[w->i + 1] == 'u' && hex4(w, w->i + 2, &lo) == 0 && lo >= 0xDC00 &&
                lo <= 0xDFFF) {
                for (int k = 0; k < 6; k++)
                    adv(w);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(buf, size, &n, cp);
            continue;
        }
        char d = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b'
               : e == 'f' ? '\f' : e;
        if (n + 1 < size)
            buf[n++] = d;
        adv(w);
    }
    if (w->i >= w->len)
        w->failed = 1;
    else
        adv(w); /* closing quote */
    if (size)
        buf[n] = 0;
}

static void walk_value(walker *w, const char *path, int kl, int kc, int depth);

/* Inside an object or array, before its next member: skips blanks and
 * commas.  1: a member starts here; 0: the closing bracket was passed;
 * -1: the text ended first (w->failed set). */
static int next_member(walker *w, char close)
{
    for (;;) {
        skip_ws(w);
        if (w->i >= w->len) {
            w->failed = 1;
            return -1;
        }
        if (w->s[w->i] != close && w->s[w->i] != ',')
            return 1;
        int closed = w->s[w->i] == close;
        adv(w);
        if (closed)
            return 0;
    }
}

static void walk_value(walker *w, const char *path, int kl, int kc, int depth)
{
    skip_ws(w);
    if (w->failed || w->i >= w->len || depth > MAX_DEPTH) {
        w->failed = 1;
        return;
    }
    int vl = w->line, vc = w->col;
    record(w, path, kl ? kl : vl, kl ? kc : vc, vl, vc);
    char c = w->s[w->i];
    char sub[MAX_PATH];
    if (c == '{') {
        adv(w);
        while (next_member(w, '}') > 0) {
            if (w->s[w->i] != '"') {
                w->failed = 1;
                return;
            }
            int l = w->line, col = w->col;
            char key[256];
            read_string(w, key, sizeof key);
            skip_ws(w);
            if (w->i >= w->len || w->s[w->i] != ':') {
                w->failed = 1;
                return;
            }
            adv(w);
            snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "/" : "", key);
            walk_value(w, sub, l, col, depth + 1);
            if (w->failed)
                return;
        }
    } else if (c == '[') {
        adv(w);
        size_t idx = 0;
        while (next_member(w, ']') > 0) {
            snprintf(sub, sizeof sub, "%s%s%zu", path, path[0] ? "/" : "", idx++);
            walk_value(w, sub, 0, 0, depth + 1);
            if (w->failed)
                return;
        }
    } else if (c == '"') {
        char dummy[1];
        read_string(w, dummy, sizeof dummy);
    } else {
        /* number, true, false, null; a walk that cannot move on stops,
         * so no input can make it loop */
        size_t before = w->i;
        while (w->i < w->len && !strchr(",]} \t\r\n", w->s[w->i]) && w->s[w->i])
            adv(w);
        if (w->i == before)
            w->failed = 1;
    }
}

static size_t hash_path(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* A hash index so that plans of 10,000 kernels stay linear. */
static void build_slots(jsonpos *ix)
{
    size_t ns = 16;
    while (ns < ix->n * 2)
        ns *= 2;
    ix->slots = calloc(ns, sizeof *ix->slots);
    if (!ix->slots)
        return;
    ix->nslots = ns;
    for (size_t i = 0; i < ix->n; i++) {
        size_t h = hash_path(ix->entries[i].path) & (ns - 1);
        while (ix->slots[h])
            h = (h + 1) & (ns - 1);
        ix->slots[h] = i + 1;
    }
}

void jsonpos_index(const char *text, size_t len, jsonpos *out)
{
    memset(out, 0, sizeof *out);
    walker w = {.s = text, .len = len, .line = 1, .col = 1, .ix = out};
    walk_value(&w, "", 0, 0, 0);
    build_slots(out);
}

const jsonpos_entry *jsonpos_find(const jsonpos *ix, const char *path)
{
    if (!ix->nslots)
        return NULL;
    size_t h = hash_path(path) & (ix->nslots - 1);
    while (ix->slots[h]) {
        const jsonpos_entry *e = &ix->entries[ix->slots[h] - 1];
        if (strcmp(e->path, path) == 0)
            return e;
        h = (h + 1) & (ix->nslots - 1);
    }
    return NULL;
}

void jsonpos_free(jsonpos *ix)
{
    for (size_t i = 0; i < ix->n; i++)
        free(ix->entries[i].path);
    free(ix->entries);
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}

const char *jsonpos_type_phrase(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static int path_of(const json_t *node, const json_t *target, char *buf, size_t n, size_t at,
                   int depth)
{
    if (node == target)
        return 0;
    if (depth > MAX_DEPTH)
        return -1;
    if (json_is_object(node)) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)node, key, v) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? "/" : "", key);
            if (w < 0 || (size_t)w >= n - at)
                continue;
            if (path_of(v, target, buf, n, at + (size_t)w, depth + 1) == 0)
                return 0;
        }
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            int w = snprintf(buf + at, n - at, "%s%zu", at ? "/" : "", i);
            if (w < 0 || (size_t)w >= n - at)
                continue;
            if (path_of(json_array_get(node, i), target, buf, n, at + (size_t)w, depth + 1) == 0)
                return 0;
        }
    }
    buf[at] = 0;
    return -1;
}

int jsonpos_path_of(const json_t *root, const json_t *target, char *buf, size_t n)
{
    if (!n)
        return -1;
    buf[0] = 0;
    if (!root || !target)
        return -1;
    return path_of(root, target, buf, n, 0, 0);
}

void jsonpos_locate(const char *text, size_t len, const json_t *root, const json_t *target,
                    int *line, int *col)
{
    *line = *col = 0;
    char path[MAX_PATH];
    if (!text || jsonpos_path_of(root, target, path, sizeof path) != 0)
        return;
    jsonpos ix;
    jsonpos_index(text, len, &ix);
    const jsonpos_entry *e = jsonpos_find(&ix, path);
    if (e) {
        *line = e->value_line;
        *col = e->value_col;
    }
    jsonpos_free(&ix);
}
