/* cpu_calibrate.h - `clockwork calibrate --cpu`: measure this CPU's
 * ceilings for native kernels.
 *
 * Contract: cpu_calibrate() measures the FP32 FMA rate (1 core, all
 * cores; several independent chains per thread) and the triad bandwidth
 * (arrays well beyond the last-level cache), fills out (source
 * calibrated, the command and what was measured) and returns 0, or
 * CW_STATUS_ENV with err.  Progress and a warning when other processes held
 * the cores go to log (may be NULL).
 */
#ifndef CW_CPU_CALIBRATE_H
#define CW_CPU_CALIBRATE_H

#include <stdio.h>

#include "error.h"
#include "profile.h"

int cpu_calibrate(double budget_s, device_profile *out, FILE *log,
                  cw_error *err);

/* Triad a = b + s c on nt threads over arrays of n floats (best of five
 * runs after one that touches the pages): GB/s counting three arrays over
 * the wall time, and in *by_cpu_gbs (may be NULL) over the slowest
 * thread's CPU time (time other processes held a core is not the
 * memory's: what calibrate uses for a CPU Vulkan device's DRAM). */
double cpu_triad_gbs(unsigned nt, float *a, float *b, float *c, size_t n,
                     double *by_cpu_gbs);

#endif
