/* calibrate_tlb.c - the translation reach fit (calibrate_tlb.h). */
#include "calibrate_tlb.h"

#include <math.h>

/* least squares of y = a + c x over the rows; returns the squared error */
static double fit_line(const double *x, const double *y, size_t n, double *a,
                       double *c)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double det = n * sxx - sx * sx;
    if (fabs(det) < 1e-12) {
        *c = 0;
        *a = sy / n;
    } else {
        *c = (n * sxy - sx * sy) / det;
        *a = (sy - *c * sx) / n;
    }
    double e = 0;
    for (size_t i = 0; i < n; i++) {
        double d = y[i] - (*a + *c * x[i]);
        e += d * d;
    }
    return e;
}

enum { TLB_MAX_ROWS = 32 };

int cal_tlb_fit(const double *span_bytes, const double *lines_gops, size_t n,
                double step, double *reach_bytes, double *miss_gops,
                double *base_gops)
{
    *reach_bytes = *miss_gops = *base_gops = -1;
    double s[TLB_MAX_ROWS], t[TLB_MAX_ROWS], x[TLB_MAX_ROWS];
    size_t m = 0;
    double lo = INFINITY, hi = 0, t_lo = 0, t_hi = 0;
    for (size_t i = 0; i < n && m < TLB_MAX_ROWS; i++) {
        if (!(span_bytes[i] > 0) || !(lines_gops[i] > 0) ||
            !isfinite(lines_gops[i]))
            continue;
        s[m] = span_bytes[i];
        t[m] = 1 / lines_gops[i]; /* ns per line */
        if (s[m] < lo) {
            lo = s[m];
            t_lo = t[m];
        }
        if (s[m] > hi) {
            hi = s[m];
            t_hi = t[m];
        }
        m++;
    }
    if (m < 3)
        return -1;
    if (!(t_hi > t_lo * (1 + step)))
        return 1;
    const double grid = 1 << 17; /* 1/8 MiB */
    double best_e = INFINITY, best_r = 0, best_a = 0, best_c = 0;
    for (double r = grid; r <= hi; r += grid) {
        for (size_t i = 0; i < m; i++)
            x[i] = s[i] > r ? 1 - r / s[i] : 0;
        double a, c;
        double e = fit_line(x, t, m, &a, &c);
        if (c > 0 && e < best_e) {
            best_e = e;
            best_r = r;
            best_a = a;
            best_c = c;
        }
    }
    if (!(best_c > 0) || !(best_a > 0))
        return 1;
    *reach_bytes = best_r;
    *miss_gops = 1 / best_c;
    *base_gops = 1 / best_a;
    return 0;
}
