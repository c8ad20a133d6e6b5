/* vk_clock.h - is the GPU at its clock when a kernel is sampled?
 *
 * A GPU drops its clocks while the host fills a plan's buffers, and the
 * climb back can outlast the time-based warm-up: on an H200 the SM clock
 * once took ~2.8 s of busy time to go 555 -> 750 (held 1.2 s) -> 1980 MHz
 * (docs/measurement.md), and a kernel sampled there read 1.5-3.9x slow
 * with a tight spread.  A kernel's own times cannot tell a plateau from the
 * full clock; one invocation's dependent FMA chain can: its time is its
 * FMAs x the profile's `fp_latency_cycles` / `clock_ghz`, whatever the
 * memory system does.  The probe is calibrate's `fp latency` row itself,
 * so the constant means what calibrate measured.
 *
 * Contract:
 *   clock_probe_expected_us() (declared in vk.h, for the session): the
 *     probe's time at a profile's clock.
 *   vkx_clock_probe_time(c, timeout_s, &us, &why, err): times the probe
 *     once (compiled and recorded on first use, kept in the context until
 *     vk_close); us is one chain's time, the bracket of
 *     CLOCK_PROBE_REPEAT chained dispatches / CLOCK_PROBE_REPEAT so the
 *     launch cost stays under ~1%.  Returns 0; 0 with *why set (malloc'd)
 *     when the probe cannot be built here (nothing was timed); or the
 *     run's status with err (a hang, a lost device).
 *   vkx_clock_probe_destroy(c): vk_close's part.
 * The policy (what reads settled, how long to warm more) is the runner's
 * (vk_kernel.c) and clock_reading_note's (core/report.h).
 */
#ifndef CW_VK_CLOCK_H
#define CW_VK_CLOCK_H

#include "vk_internal.h"

#define CLOCK_PROBE_REPEAT 4

int vkx_clock_probe_time(vk_ctx *c, double timeout_s, double *us, char **why,
                         cw_error *err);
void vkx_clock_probe_destroy(vk_ctx *c);

#endif
