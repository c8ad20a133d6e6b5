/* eval_runsort.c - natural merge sort of byte ranges by lo (see
 * eval_runsort.h). */
#include "eval_runsort.h"

#include "alloc.h"

#include <stdlib.h>
#include <string.h>

/* Runs shorter than this are extended by insertion sort first, so that a
 * random array still has at most n / MIN_RUN + 1 runs to merge. */
#define MIN_RUN 32

/* a[0..from) is sorted: inserts a[from..n) into it. */
static void insert_sorted(ev_run *a, size_t from, size_t n)
{
    for (size_t i = from ? from : 1; i < n; i++) {
        ev_run t = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].lo > t.lo) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

static void reverse(ev_run *a, size_t n)
{
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
        ev_run t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* The end of the monotone run that starts at i: non-decreasing, or
 * strictly decreasing (then reversed in place). */
static size_t run_end(ev_run *a, size_t i, size_t n)
{
    size_t j = i + 1;
    if (j >= n)
        return n;
    if (a[j].lo < a[i].lo) {
        while (j + 1 < n && a[j + 1].lo < a[j].lo)
            j++;
        reverse(a + i, j + 1 - i);
    } else {
        while (j + 1 < n && a[j + 1].lo >= a[j].lo)
            j++;
    }
    return j + 1;
}

static void merge(const ev_run *x, size_t nx, const ev_run *y, size_t ny,
                  ev_run *out)
{
    if (!nx || !ny || x[nx - 1].lo <= y[0].lo) { /* already in order */
        memcpy(out, x, nx * sizeof *x);
        memcpy(out + nx, y, ny * sizeof *y);
        return;
    }
    size_t i = 0, j = 0, k = 0;
    while (i < nx && j < ny)
        out[k++] = y[j].lo < x[i].lo ? y[j++] : x[i++];
    memcpy(out + k, x + i, (nx - i) * sizeof *x);
    k += nx - i;
    memcpy(out + k, y + j, (ny - j) * sizeof *y);
}

void ev_run_sort(ev_run *a, size_t n)
{
    if (n <= MIN_RUN) {
        insert_sorted(a, 1, n);
        return;
    }
    /* every run but the last has MIN_RUN ranges or more; one slot more
     * for the end */
    size_t *start = xmalloc((n / MIN_RUN + 2) * sizeof *start);
    size_t nr = 0;
    for (size_t i = 0; i < n;) {
        size_t e = run_end(a, i, n);
        if (e - i < MIN_RUN) {
            size_t want = n - i > MIN_RUN ? i + MIN_RUN : n;
            insert_sorted(a + i, e - i, want - i);
            e = want;
        }
        start[nr++] = i;
        i = e;
    }
    start[nr] = n;
    if (nr > 1) {
        ev_run *tmp = xmalloc(n * sizeof *tmp);
        ev_run *src = a, *dst = tmp;
        while (nr > 1) {
            size_t w = 0;
            for (size_t r = 0; r < nr; r += 2) {
                size_t lo = start[r], mid = start[r + 1];
                size_t hi = r + 2 <= nr ? start[r + 2] : n;
                merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
                start[w++] = lo;
            }
            start[w] = n;
            nr = w;
            ev_run *t = src;
            src = dst;
            dst = t;
        }
        if (src != a)
            memcpy(a, src, n * sizeof *a);
        free(tmp);
    }
    free(start);
}
