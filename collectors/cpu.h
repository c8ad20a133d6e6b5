/* cpu.h - native CPU kernels ("kind": "cpu" in a plan, issue 8).
 *
 * Contract: cpu_check_kernel() is the static stage for a CPU kernel: it
 * evaluates the plan's work expressions (expr.h), inspects the symbol's
 * machine code for packed vector FP instructions (Capstone), and fills the
 * prediction (roofline over the CPU profile for the kernel's thread count)
 * and findings.  cpu_measure_kernel() loads the library, calls the symbol
 * with the ABI of include/clockwork.h (warm-up + samples, libpfm4 counters
 * inherited by the kernel's threads) and fills kr->measurement.  Returns 0
 * or CW_EXIT_ENV (library or symbol missing, kernel returned non-zero:
 * measurement.error says which).  The verdict is the pipeline's job.
 */
#ifndef CW_CPU_H
#define CW_CPU_H

#include <stddef.h>
#include <stdio.h>

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "vk.h"

/* The native CPU profile: calibrated cache, else detected (CPUID). */
void cpu_profile(device_profile *out);

void cpu_check_kernel(const plan_kernel *k, const device_profile *cpu_prof,
                      kernel_report *kr);
int cpu_measure_kernel(const plan_kernel *k, const run_options *ro,
                       kernel_report *kr);

/* clockwork calibrate --cpu: measure FMA rate (1 core, all cores) and
 * triad bandwidth; fills out and returns 0. */
int cpu_calibrate(double budget_s, device_profile *out, FILE *log,
                  cw_error *err);

/* The verdict against the roofline, called by cpu_measure_kernel() after
 * sampling (public for tests): efficiency = prediction time / measured
 * median; the flag is decided on the best call with its CPU wait
 * discounted (samples[i] wall us, delays[i] wait us or < 0 unknown;
 * bracket_us the mean span the counters covered per call, <= 0 unknown).
 * Sets kr->divergence (ok / slower) and, below min_efficiency, adds
 * far-below-roofline with the evidence.  Does nothing when the prediction
 * or measurement is missing. */
void cpu_roofline_verdict(const plan_kernel *k, kernel_report *kr,
                          const double *samples, const double *delays,
                          size_t n, double bracket_us);

/* The profile as detected, ignoring any calibration (tests, `--profile`). */
void cpu_profile_detect(device_profile *out);
/* "cpu-<hash of the model name>": the uuid under which the CPU's calibrated
 * profile is cached, with driver "native". */
void cpu_profile_uuid(char *buf, size_t n);
/* Where `clockwork calibrate --cpu` saves and cpu_profile() looks:
 * profile_cache_path(uuid, "native").  Returns 0, -1 without a home. */
int cpu_profile_cache_path(char *buf, size_t n);

#endif
