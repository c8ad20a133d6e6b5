/* cpu_isa.h - this machine's vector ISA, for native CPU kernels: what the
 * roofline assumes (profile detection), what the machine-code checks
 * compare the kernel's code with, and the thread count a kernel gets.
 *
 * Contract: plain queries of the running CPU (cpuid via
 * __builtin_cpu_supports, sysconf); no state, no allocation.
 */
#ifndef CW_CPU_ISA_H
#define CW_CPU_ISA_H

#include "plan.h"

/* FMA units per core assumed when no calibration measured the peak. */
#define CPU_ASSUMED_FMA_UNITS 2

unsigned cpu_isa_online_cpus(void);
int cpu_isa_lanes_fp32(void);      /* 16 AVX-512, 8 AVX/AVX2, 4 SSE */
const char *cpu_isa_name(void);    /* "AVX-512", "AVX2", "AVX", "SSE" */
int cpu_isa_has_fma(void);
/* Threads a native kernel runs on: the plan's "threads", else every
 * online CPU. */
unsigned cpu_isa_kernel_threads(const plan_kernel *k);

#endif
