/* calibrate.h - measure a Vulkan device's model constants (clockwork
 * calibrate).
 *
 * Contract: calibrate_device() runs the microbenchmarks of
 * calibrate_table.h on the device c, opened by the caller without counters
 * and closed by it (the Vulkan backend's calibrate, reached through
 * session_calibrate() in app/session.h; selector is the --device that chose
 * it, for the profile's command line), one per profile field
 * (bandwidths, latencies, arithmetic rates, atomics, barriers, subgroup
 * operations, lavapipe's per-class costs), plus the dispatch overhead and
 * the timestamp resolution.  Each measurement grows until it lasts >= 20 ms
 * (scaled down by budget_s).  It starts from the built-in profile of the
 * same key (shape fields that cannot be measured survive).  Progress goes
 * to log (may be NULL), one line per field.  Fills out (source =
 * calibrated, limits from the device) and returns 0, or CW_STATUS_ENV with
 * err.  Saving to the cache (profile_cache_path) is the caller's choice.
 */
#ifndef CW_CALIBRATE_H
#define CW_CALIBRATE_H

#include <stdio.h>

#include "error.h"
#include "profile.h"
#include "vk.h"

int calibrate_device(vk_ctx *c, const char *selector, double budget_s,
                     device_profile *out, FILE *log, cw_error *err);

#endif
