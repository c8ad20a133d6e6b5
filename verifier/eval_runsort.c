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

/* The first of a[0..n) whose lo is above key (n when none). */
static size_t upper_bound(const ev_run *a, size_t n, int64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].lo <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first of a[0..n) whose lo is key or above (n when none). */
static size_t lower_bound(const ev_run *a, size_t n, int64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid].lo < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sorted x[0..nx) and the sorted y[0..ny) that follows it become one
 * sorted range, through tmp (room for the smaller of the two).  What is
 * already in place at either end is not moved: joining a long sorted
 * prefix with ranges above it copies nothing. */
static void merge_adjacent(ev_run *x, size_t nx, size_t ny, ev_run *tmp)
{
    ev_run *y = x + nx;
    size_t skip = upper_bound(x, nx, y[0].lo);
    x += skip;
    nx -= skip;
    if (!nx)
        return;
    ny = lower_bound(y, ny, x[nx - 1].lo);
    if (!ny)
        return;
    if (nx <= ny) { /* x aside, merged forwards into its own place */
        memcpy(tmp, x, nx * sizeof *x);
        size_t i = 0, j = 0, k = 0;
        while (i < nx && j < ny)
            x[k++] = y[j].lo < tmp[i].lo ? y[j++] : tmp[i++];
        memcpy(x + k, tmp + i, (nx - i) * sizeof *x); /* y's rest is in place */
    } else { /* y aside, merged backwards from its end */
        memcpy(tmp, y, ny * sizeof *y);
        size_t i = nx, j = ny, k = nx + ny;
        while (i > 0 && j > 0)
            x[--k] = tmp[j - 1].lo < x[i - 1].lo ? x[--i] : tmp[--j];
        memcpy(x, tmp, j * sizeof *x); /* x's rest is in place */
    }
}

/* The pending runs (start, length), merged as in Timsort so that runs of
 * like lengths meet: a long run is copied O(log) times at most, not once
 * a level as in a bottom-up merge. */
#define MAX_PENDING 128

typedef struct run_stack {
    size_t base[MAX_PENDING], len[MAX_PENDING];
    int n;
    ev_run *a, *tmp;
} run_stack;

static void merge_at(run_stack *st, int k)
{
    merge_adjacent(st->a + st->base[k], st->len[k], st->len[k + 1], st->tmp);
    st->len[k] += st->len[k + 1];
    for (int i = k + 1; i + 1 < st->n; i++) {
        st->base[i] = st->base[i + 1];
        st->len[i] = st->len[i + 1];
    }
    st->n--;
}

/* Restores len[k-2] > len[k-1] + len[k] and len[k-1] > len[k] below the
 * top (Timsort's invariants, checked two deep). */
static void collapse(run_stack *st)
{
    while (st->n > 1) {
        int k = st->n - 2;
        const size_t *len = st->len;
        if ((k > 0 && len[k - 1] <= len[k] + len[k + 1]) ||
            (k > 1 && len[k - 2] <= len[k - 1] + len[k])) {
            if (len[k - 1] < len[k + 1])
                k--;
        } else if (len[k] > len[k + 1]) {
            break;
        }
        merge_at(st, k);
    }
}

static void collapse_all(run_stack *st)
{
    while (st->n > 1) {
        int k = st->n - 2;
        if (k > 0 && st->len[k - 1] < st->len[k + 1])
            k--;
        merge_at(st, k);
    }
}

void ev_run_sort(ev_run *a, size_t n)
{
    if (n <= MIN_RUN) {
        insert_sorted(a, 1, n);
        return;
    }
    run_stack st;
    st.n = 0;
    st.a = a;
    st.tmp = NULL;
    for (size_t i = 0; i < n;) {
        size_t e = run_end(a, i, n);
        if (e - i < MIN_RUN) {
            size_t want = n - i > MIN_RUN ? i + MIN_RUN : n;
            insert_sorted(a + i, e - i, want - i);
            e = want;
        }
        if (!st.tmp && e < n) /* a second run: merges to come */
            st.tmp = xmalloc((n / 2 + 1) * sizeof *st.tmp);
        if (st.n == MAX_PENDING) /* cannot happen with the invariants */
            collapse_all(&st);
        st.base[st.n] = i;
        st.len[st.n] = e - i;
        st.n++;
        collapse(&st);
        i = e;
    }
    collapse_all(&st);
    free(st.tmp);
}
