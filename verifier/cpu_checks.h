/* cpu_checks.h - the static checks of a native CPU kernel ("kind": "cpu").
 *
 * Contract: cpu_checks_run() looks at a CPU kernel without running it:
 * its args must be integers (plan-invalid), its work expressions must
 * evaluate over them (work-expression-invalid, an input error), its
 * library must exist (lib_file: the file the run will load, resolved by
 * the caller; NULL with lib_why when there is none: library-invalid) and
 * be an x86-64 shared object exporting the symbol (library-invalid,
 * symbol-invalid), and its machine code is inspected once
 * (cpuinspect.h): scalar-fp-code when the
 * loops do scalar FP arithmetic, narrow-vector-code when they use vectors
 * narrower than the machine's or no FMA where it has it.  What was
 * inspected goes into the prediction's assumptions; the facts go into
 * *out for the model (model_cpu.h) and the verdict's evidence.  out is
 * plain data.
 */
#ifndef CW_CPU_CHECKS_H
#define CW_CPU_CHECKS_H

#include "cpuinspect.h"
#include "plan.h"
#include "profile.h"
#include "report.h"

typedef struct cpu_static {
    int work_ok;            /* args are integers and work evaluated */
    double flops, bytes;    /* the plan's work; < 0 when not given */
    int inspected;          /* code holds the machine-code facts */
    cpuinspect_result code; /* otherwise code.reason says why not */
} cpu_static;

void cpu_checks_run(const plan_kernel *k, const char *lib_file,
                    const char *lib_why, const device_profile *prof,
                    kernel_report *kr, cpu_static *out);

#endif
