/* calibrate_cpu.h - lavapipe's instruction classes for `clockwork calibrate`.
 *
 * Contract: the CPU Vulkan device (llvmpipe) costs a counted SPIR-V
 * instruction by its class (profile cpu_costs): FP (FLOPs / 2, an FMA
 * being 2 FLOPs), integer (the evaluator's int_ops), special function
 * (sfu_ops) and the rest (every other counted instruction: compares,
 * selects, conversions, moves).  cal_cpu_instr_cycles prices counts with
 * the profile, each class falling back to the rest's cost where unknown;
 * cal_cpu_solve_classes takes four micro-kernels, each dominated by one
 * class, and solves the four costs jointly from their core cycles and
 * class counts, so that the split means exactly what the model counts.
 */
#ifndef CW_CALIBRATE_CPU_H
#define CW_CALIBRATE_CPU_H

#include "profile.h"

enum { CAL_CLS_REST = 0, CAL_CLS_FP, CAL_CLS_INT, CAL_CLS_SFU, CAL_CLS_N };

/* Class counts of `instr` counted instructions (lane-instructions). */
void cal_cpu_classes(double instr, double flops, double int_ops,
                     double sfu_ops, double out[CAL_CLS_N]);

/* Core cycles of the classes' counts at vectors of `sg` lanes. */
double cal_cpu_instr_cycles(const device_profile *p,
                            const double cls[CAL_CLS_N], double sg);

/* The cost of each class (core cycles per counted instruction of one
 * vector) from four kernels: cyc[k] core cycles of kernel k, cnt[k][c]
 * its class counts over sg-lane vectors.  0 on success (every cost > 0),
 * 1 when the system is singular or a cost comes out <= 0 (x untouched). */
int cal_cpu_solve_classes(const double cyc[CAL_CLS_N],
                          const double cnt[CAL_CLS_N][CAL_CLS_N], double sg,
                          double x[CAL_CLS_N]);

/* llvmpipe runs a workgroup as a loop over its subgroup-size vectors: the
 * same kernel timed in narrow and in wide workgroups (core ns per
 * workgroup, beyond the counted instructions; narrow_sg < wide_sg
 * subgroups each) gives the cost of a subgroup (*sub_cyc, core cycles at
 * clock_ghz) and of a workgroup's start alone (*start_ns).  0 on success,
 * 1 when the subgroups cost nothing or more than the narrow workgroup
 * (outputs untouched). */
int cal_cpu_group_split(double narrow_ns, double narrow_sg, double wide_ns,
                        double wide_sg, double clock_ghz, double *start_ns,
                        double *sub_cyc);

/* The median of n values (n >= 1; the mean of the middle two when n is
 * even); v is reordered. */
double cal_cpu_median(double *v, int n);

/* The profile field of each class. */
double *cal_cpu_class_field(device_profile *p, int cls);

#endif
