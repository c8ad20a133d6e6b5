/* pipeline.h - one kernel through every stage, GPU and native CPU alike.
 *
 *   GPU:  shader (shader.h) -> verifier (verifier.h) -> model (model.h)
 *   CPU:  checks (cpu_checks.h)                      -> model (model_cpu.h)
 *         -> gate: kernels with error findings are not run
 *         -> backend (backend.h: measure) -> verdict (verdict.h)
 *
 * Contract: pipeline_check_kernel() does everything static for one plan
 * kernel; it needs no device, but uses one when given (dev may be NULL):
 * the backend's prepare() asks the driver for the registers the model's
 * occupancy reads.  It is two parts, callable apart:
 * pipeline_analyse_kernel() (the shader, the verifier's findings,
 * reflection and counts; a CPU kernel's checks: no device, the costly
 * part) and pipeline_predict_kernel() (the device's facts and the model's
 * prediction and performance findings: cheap), so that a device process
 * handed the analysis of a kernel only predicts it for its device and
 * measures it (devchild.h).  pipeline_measure_kernel() runs the kernel through the
 * backend and judges the result with the one verdict.  A kernel_artifacts
 * keeps what the static stage built (SPIR-V, reflection, counts; a CPU
 * kernel's work and machine-code facts) for the runner, the verdict and
 * the TUI's source view; kernel_artifacts_free() releases it.  Errors about
 * one kernel are recorded in its kernel_report (findings,
 * measurement.error) so the other kernels of a plan still go through.
 * Device, profile and options are the session's choice (session.h).
 */
#ifndef CW_PIPELINE_H
#define CW_PIPELINE_H

#include "backend.h"
#include "cpu_checks.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

typedef struct kernel_artifacts {
    int analysed;            /* the analysis went through: predictable */
    int have_module;
    shader_module module;
    int have_result;
    verifier_result result;
    int have_cpu;            /* native CPU kernels */
    cpu_static cpu;
} kernel_artifacts;

void kernel_artifacts_free(kernel_artifacts *a);

/* Static stage: fills kr (name, kind, shader, findings, prediction).
 * The same as pipeline_analyse_kernel() then pipeline_predict_kernel(). */
void pipeline_check_kernel(const plan_kernel *k, const device_profile *prof,
                           backend_slot *dev, kernel_report *kr,
                           kernel_artifacts *art);
/* Its first part: fills kr (kind, shader, entry, workgroups, the
 * verifier's or the CPU checks' findings; input_error, env_error) and art
 * (reset first); art->analysed when the model can predict from it. */
void pipeline_analyse_kernel(const plan_kernel *k, const device_profile *prof,
                             kernel_report *kr, kernel_artifacts *art);
/* Its second part, on what the first left in kr and art, with the same
 * prof: asks dev (may be NULL) for the kernel's compile-time facts (into
 * art's counts), then fills kr->prediction and appends the model's
 * findings.  Nothing when !art->analysed. */
void pipeline_predict_kernel(const plan_kernel *k, const device_profile *prof,
                             backend_slot *dev, kernel_report *kr,
                             kernel_artifacts *art);

/* Live stage: runs the kernel through dev unless it has error findings or
 * could not be analysed (then the divergence says "not run" and why),
 * fills kr->measurement and kr->divergence.  Returns 0 or CW_STATUS_ENV. */
int pipeline_measure_kernel(backend_slot *dev, const plan_kernel *k,
                            const device_profile *prof,
                            kernel_artifacts *art, const run_options *ro,
                            double tolerance, kernel_report *kr);

#endif
