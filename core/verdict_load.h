/* verdict_load.h - what a busy machine means for the verdict.
 *
 * Contract (pure): a machine_load (report.h, measured by collectors/load.h)
 * says how much CPU time other processes and the hypervisor took while a
 * kernel was measured.  machine_load_available() is the fraction of the
 * machine left to the run; busy means less than 80% was left.  On a CPU
 * device (lavapipe) or for a native CPU kernel the run's own threads
 * compete for those CPUs, so a kernel can look up to 1/available times
 * slower than it is.  verdict_apply_load() is applied after the verdict:
 * a 'slower' that the missing CPU time could explain (the ratio inside the
 * band stretched by 1/available) becomes 'unknown' with the reason; a
 * 'slower' beyond that stays, with the load named; ok and faster keep
 * their status with the load named (others cannot make a kernel faster).
 * A GPU's timestamps do not depend on the host's load, and a native CPU
 * kernel's verdict already discounts the time its threads waited for a CPU
 * (core/verdict.c, from collectors/cpu_run.c): for those the load is only
 * named.
 */
#ifndef CW_VERDICT_LOAD_H
#define CW_VERDICT_LOAD_H

#include <stddef.h>

#include "report.h"

double machine_load_available(const machine_load *l);
int machine_load_busy(const machine_load *l);
/* "other processes held 1.0 of 2 CPUs (load average 3.1; this run used 1.0)" */
void machine_load_describe(const machine_load *l, char *buf, size_t n);
typedef enum {
    LOAD_GPU = 0,    /* a GPU device */
    LOAD_CPU_DEVICE, /* a CPU Vulkan device (lavapipe) */
    LOAD_NATIVE_CPU, /* a native CPU kernel */
} load_target;

/* band: the verdict's relative band (verdict_band()). */
void verdict_apply_load(const measurement *m, double band, load_target target,
                        divergence *d);

#endif
