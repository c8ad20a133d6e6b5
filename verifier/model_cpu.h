/* model_cpu.h - the performance model of a native CPU kernel: the roofline.
 *
 * Contract: model_cpu_predict() fills the prediction of a CPU kernel from
 * its counted work (cpu_checks.h: the plan's "work" FLOPs and bytes) and
 * the CPU profile, shared by the kernel's threads: t threads get t/units of
 * the FP32 peak and of the bandwidth (capped at the whole machine).  There
 * is no model of the code as written, so predicted = ideal = the time at
 * the binding ceiling; the verdict reads efficiency = predicted / measured.
 * Terms "fp32" and "dram"; bound is the larger.  Invalid (unknown
 * confidence, with the reason in the assumptions) when neither term can be
 * computed.  Does nothing when the work did not evaluate.
 */
#ifndef CW_MODEL_CPU_H
#define CW_MODEL_CPU_H

#include "cpu_checks.h"
#include "plan.h"
#include "profile.h"
#include "report.h"

/* Bandwidth per thread assumed when no calibration measured it. */
#define CPU_ASSUMED_GBS_PER_CORE 10.0

void model_cpu_predict(const plan_kernel *k, const cpu_static *st,
                       const device_profile *prof, prediction *p);

#endif
