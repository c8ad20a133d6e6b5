/* cpu_profile.h - the profile of this CPU for native kernels.
 *
 * Contract: cpu_profile() gives the calibrated profile from the cache
 * (`clockwork calibrate --cpu`), else the detected one;
 * cpu_profile_detect() detects it (cores, vector ISA, clock from
 * /proc/cpuinfo, caches), ignoring any calibration.  Both mark the profile
 * as kind DEVICE_KIND_NATIVE_CPU.  Plain data out, no allocation.
 */
#ifndef CW_CPU_PROFILE_H
#define CW_CPU_PROFILE_H

#include <stddef.h>

#include "profile.h"

void cpu_profile(device_profile *out);
void cpu_profile_detect(device_profile *out);
/* "cpu-<hash of the model name>": the uuid under which the CPU's calibrated
 * profile is cached, with driver "native". */
void cpu_profile_uuid(char *buf, size_t n);
/* Where `clockwork calibrate --cpu` saves and cpu_profile() looks:
 * profile_cache_path(uuid, "native").  Returns 0, -1 without a home. */
int cpu_profile_cache_path(char *buf, size_t n);

#endif
