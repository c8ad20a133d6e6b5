/* cpu_run.h - running a native CPU kernel ("kind": "cpu") and timing it.
 *
 * Contract: cpu_measure_kernel() runs the kernel in a child process
 * (cpu_isolate.h: the library is loaded there, never here) and calls its
 * symbol with the ABI of include/clockwork.h (buffers filled per the
 * plan's init, 64-byte aligned, between guard pages; int64 args in plan
 * order): warm-up, then samples within the budget, libpfm4 counters
 * inherited by the kernel's process and threads, and the CPU wait of those
 * threads (time runnable but waiting for a CPU held by other processes).  It fills m (samples
 * and their statistics, counters per call, has_wait / wait_median_us /
 * best_own_us / counted_span_us) and never judges: the verdict does.
 * Returns 0, or CW_STATUS_ENV (library or symbol missing, the kernel
 * returned non-zero, crashed, overran a buffer, hung: m->error says
 * which).
 */
#ifndef CW_CPU_RUN_H
#define CW_CPU_RUN_H

#include <stdint.h>

#include "plan.h"
#include "report.h"
#include "vk.h" /* run_options */

int cpu_measure_kernel(const plan_kernel *k, const run_options *ro,
                       measurement *m);

double cpu_now_s(void);

#endif
