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

#endif
