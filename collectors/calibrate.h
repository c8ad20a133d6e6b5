/* calibrate.h - measure a Vulkan device's ceilings (clockwork calibrate).
 *
 * Contract: calibrate_device() runs micro-kernels on the selected device:
 * DRAM copy/read/write bandwidth, L2 and shared-memory bandwidth,
 * FP32/FP16/FP64 (where supported) and INT32 throughput with several
 * independent FMA chains from distinct starting values (results written so
 * nothing is folded away), dispatch overhead and timestamp resolution.  Each
 * measurement grows until it lasts >= 20 ms (scaled down by budget_s).
 * Progress goes to log (may be NULL).  Fills out (source = calibrated,
 * limits from the device) and returns 0, or CW_EXIT_ENV with err.
 * Saving to the cache (profile_cache_path) is the caller's choice.
 */
#ifndef CW_CALIBRATE_H
#define CW_CALIBRATE_H

#include <stdio.h>

#include "error.h"
#include "profile.h"

int calibrate_device(const char *selector, double budget_s,
                     device_profile *out, FILE *log, cw_error *err);

#endif
