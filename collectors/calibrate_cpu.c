/* calibrate_cpu.c - lavapipe's instruction classes (calibrate_cpu.h). */
#include "calibrate_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cal_cpu_classes(double instr, double flops, double int_ops,
                     double sfu_ops, double out[CAL_CLS_N])
{
    out[CAL_CLS_FP] = flops / 2;
    out[CAL_CLS_INT] = int_ops;
    out[CAL_CLS_SFU] = sfu_ops;
    double rest = instr - out[CAL_CLS_FP] - int_ops - sfu_ops;
    out[CAL_CLS_REST] = rest > 0 ? rest : 0;
}

double *cal_cpu_class_field(device_profile *p, int cls)
{
    switch (cls) {
    case CAL_CLS_FP: return &p->cpu_cycles_per_fp_instruction;
    case CAL_CLS_INT: return &p->cpu_cycles_per_int_instruction;
    case CAL_CLS_SFU: return &p->cpu_cycles_per_sfu_instruction;
    default: return &p->cpu_cycles_per_instruction;
    }
}

double cal_cpu_instr_cycles(const device_profile *p,
                            const double cls[CAL_CLS_N], double sg)
{
    double rest = p->cpu_cycles_per_instruction > 0
                      ? p->cpu_cycles_per_instruction : 0;
    double sum = 0;
    for (int c = 0; c < CAL_CLS_N; c++) {
        double x = *cal_cpu_class_field((device_profile *)p, c);
        sum += cls[c] * (x > 0 ? x : rest);
    }
    return sum / (sg > 0 ? sg : 1);
}

int cal_cpu_solve_classes(const double cyc[CAL_CLS_N],
                          const double cnt[CAL_CLS_N][CAL_CLS_N], double sg,
                          double x[CAL_CLS_N])
{
    enum { N = CAL_CLS_N };
    double a[N][N + 1];
    for (int k = 0; k < N; k++) {
        for (int c = 0; c < N; c++)
            a[k][c] = cnt[k][c] / (sg > 0 ? sg : 1);
        a[k][N] = cyc[k];
    }
    /* Gaussian elimination with partial pivoting */
    for (int col = 0; col < N; col++) {
        int piv = col;
        for (int r = col + 1; r < N; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (!(fabs(a[piv][col]) > 1e-12 * (fabs(a[piv][N]) + 1)))
            return 1;
        if (piv != col) {
            double t[N + 1];
            memcpy(t, a[col], sizeof t);
            memcpy(a[col], a[piv], sizeof t);
            memcpy(a[piv], t, sizeof t);
        }
        for (int r = 0; r < N; r++) {
            if (r == col)
                continue;
            double f = a[r][col] / a[col][col];
            for (int c = col; c <= N; c++)
                a[r][c] -= f * a[col][c];
        }
    }
    double y[N];
    for (int c = 0; c < N; c++) {
        y[c] = a[c][N] / a[c][c];
        if (!(y[c] > 0) || !isfinite(y[c]))
            return 1;
    }
    memcpy(x, y, sizeof y);
    return 0;
}

int cal_cpu_group_split(double narrow_ns, double narrow_sg, double wide_ns,
                        double wide_sg, double clock_ghz, double *start_ns,
                        double *sub_cyc)
{
    if (!(wide_sg > narrow_sg) || !(clock_ghz > 0))
        return 1;
    double sub_ns = (wide_ns - narrow_ns) / (wide_sg - narrow_sg);
    double start = narrow_ns - narrow_sg * sub_ns;
    if (!(sub_ns > 0) || !(start > 0) || !isfinite(sub_ns))
        return 1;
    *start_ns = start;
    *sub_cyc = sub_ns * clock_ghz;
    return 0;
}

static int cmp_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cal_cpu_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
