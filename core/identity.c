/* identity.c - see identity.h. */
#include "identity.h"
#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *identity_plan_path(const char *path)
{
    if (!path)
        return NULL;
    size_t n = strlen(path);
    char *out = xmalloc(n + 1);
    size_t o = 0;
    const char *p = path;
    int absolute = *p == '/';
    if (absolute)
        out[o++] = '/';
    while (*p) {
        while (*p == '/')
            p++;
        const char *seg = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - seg);
        if (len == 0 || (len == 1 && seg[0] == '.'))
            continue; /* "" from "//", and "." */
        if (o > (size_t)absolute)
            out[o++] = '/';
        memcpy(out + o, seg, len);
        o += len;
    }
    if (o == 0)
        out[o++] = '.';
    out[o] = 0;
    return out;
}

void identity_plan_occurrences(const plan *p, uint32_t *occ)
{
    /* sort positions by name, then count runs: O(n log n) for big plans */
    size_t n = p->nkernels;
    if (!n)
        return;
    size_t *ord = xmalloc(n * sizeof *ord);
    for (size_t i = 0; i < n; i++)
        ord[i] = i;
    /* insertion-free: a stable merge sort by name keeps plan order inside runs */
    size_t *tmp = xmalloc(n * sizeof *tmp);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, t = lo;
            while (a < mid || b < hi) {
                if (b >= hi || (a < mid && strcmp(p->kernels[ord[a]].name,
                                                  p->kernels[ord[b]].name) <= 0))
                    tmp[t++] = ord[a++];
                else
                    tmp[t++] = ord[b++];
            }
        }
        memcpy(ord, tmp, n * sizeof *ord);
    }
    for (size_t i = 0; i < n; i++)
        occ[ord[i]] = i > 0 && strcmp(p->kernels[ord[i]].name, p->kernels[ord[i - 1]].name) == 0
                          ? occ[ord[i - 1]] + 1
                          : 0;
    free(tmp);
    free(ord);
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

/* qsort has no context argument in C11: the index being sorted */
static const identity_index *sorting;

static int cmp_kernels(const void *pa, const void *pb)
{
    const kernel_report *a = &sorting->r->kernels[*(const size_t *)pa];
    const kernel_report *b = &sorting->r->kernels[*(const size_t *)pb];
    int c = sorting->use_plan ? cmp_str(a->plan, b->plan) : 0;
    if (!c)
        c = cmp_str(a->name, b->name);
    if (!c && sorting->use_plan) /* plan order; without plans, report order */
        c = a->plan_index < b->plan_index ? -1 : a->plan_index > b->plan_index;
    if (!c)
        c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
    return c;
}

void identity_index_build(identity_index *ix, const report *r, int use_plan)
{
    memset(ix, 0, sizeof *ix);
    ix->r = r;
    ix->use_plan = use_plan;
    ix->n = r->nkernels;
    ix->order = xcalloc(ix->n + 1, sizeof *ix->order);
    ix->occ = xcalloc(ix->n + 1, sizeof *ix->occ);
    for (size_t i = 0; i < ix->n; i++)
        ix->order[i] = i;
    sorting = ix;
    qsort(ix->order, ix->n, sizeof *ix->order, cmp_kernels);
    sorting = NULL;
    for (size_t i = 1; i < ix->n; i++) {
        const kernel_report *a = &r->kernels[ix->order[i - 1]], *b = &r->kernels[ix->order[i]];
        if ((!use_plan || !cmp_str(a->plan, b->plan)) && !cmp_str(a->name, b->name))
            ix->occ[ix->order[i]] = ix->occ[ix->order[i - 1]] + 1;
    }
}

void identity_index_free(identity_index *ix)
{
    free(ix->order);
    free(ix->occ);
    memset(ix, 0, sizeof *ix);
}

long identity_index_find(const identity_index *ix, const char *plan_path, const char *name,
                         uint32_t occ)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) { /* first kernel with (plan, name) >= the key */
        size_t mid = lo + (hi - lo) / 2;
        const kernel_report *k = &ix->r->kernels[ix->order[mid]];
        int c = ix->use_plan ? cmp_str(k->plan, plan_path) : 0;
        if (!c)
            c = cmp_str(k->name, name);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t at = lo + occ;
    if (at >= ix->n)
        return -1;
    const kernel_report *k = &ix->r->kernels[ix->order[at]];
    if ((ix->use_plan && cmp_str(k->plan, plan_path)) || cmp_str(k->name, name) ||
        ix->occ[ix->order[at]] != occ)
        return -1;
    return (long)ix->order[at];
}

int identity_report_has_plans(const report *r)
{
    for (size_t i = 0; i < r->nkernels; i++)
        if (r->kernels[i].plan)
            return 1;
    return 0;
}

void identity_text(const char *plan_path, const char *name, uint32_t occ, char *buf, size_t n)
{
    unsigned v = occ + 1; /* the ordinal: 2nd, 3rd, 11th, 21st */
    const char *suffix = (v % 100) / 10 == 1 ? "th"
                         : v % 10 == 1       ? "st"
                         : v % 10 == 2       ? "nd"
                         : v % 10 == 3       ? "rd"
                                             : "th";
    if (occ)
        snprintf(buf, n, "%s%s%s (%u%s of that name)", plan_path ? plan_path : "", plan_path ? ": " : "",
                 name ? name : "?", v, suffix);
    else
        snprintf(buf, n, "%s%s%s", plan_path ? plan_path : "", plan_path ? ": " : "", name ? name : "?");
}
