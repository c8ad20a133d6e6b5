/* pipeline.h - one kernel through every stage, shared by the CLI and the TUI.
 *
 *   shader (shader.h) -> verifier (verifier.h) -> model (model.h)
 *       -> runner (vk.h / cpu.h) -> verdict (verdict.h)
 *
 * Contract: pipeline_check_kernel() does everything static for one plan
 * kernel and never needs a device; pipeline_measure_kernel() runs it and
 * judges the result.  A kernel_artifacts keeps what the static stage built
 * (SPIR-V, reflection, counts) for the runner and for the TUI's source view;
 * kernel_artifacts_free() releases it.  Errors about one kernel are recorded
 * in its kernel_report (findings, measurement.error) so the other kernels
 * of a plan still go through.
 */
#ifndef CW_PIPELINE_H
#define CW_PIPELINE_H

#include "plan.h"
#include "profile.h"
#include "report.h"
#include "shader.h"
#include "verifier.h"

typedef struct cw_options {
    const char *device;      /* --device selector; NULL = default order */
    const char *profile;     /* --profile FILE or built-in key; NULL = auto */
    const char *format;      /* table|json|csv|sarif */
    const char *output;      /* -o; NULL = stdout */
    unsigned samples;        /* minimum warm samples */
    unsigned warmup;
    double tolerance;        /* verdict band, default 0.25 */
    double timeout_s;        /* hang guard */
    double budget_s;         /* sampling budget per kernel */
    const char *dump_dir;
    const char *events;      /* --events, comma-separated libpfm4 names */
    const char *theme;
    int no_color;
    int quiet;
} cw_options;

void cw_options_default(cw_options *o);

typedef struct kernel_artifacts {
    int have_module;
    shader_module module;
    int have_result;
    verifier_result result;
} kernel_artifacts;

void kernel_artifacts_free(kernel_artifacts *a);

/* Choose the profile for a report: --profile (file or built-in key), then
 * the calibrated cache for the device, then a built-in matching the device
 * name, then limits only.  dev_name/uuid/driver may be NULL (no device).
 * Fills rd->profile / profile_path.  Returns 0, or CW_EXIT_USAGE with err. */
int pipeline_select_profile(const cw_options *o, const char *dev_name,
                            const char *uuid, const char *driver,
                            device_profile *prof, report_device *rd,
                            cw_error *err);

/* The profile for static work without opening a device (check, and the
 * TUI before or without measuring): lists devices (no logical device),
 * picks one by --device, and selects its profile.  A --device that names no
 * device but a built-in profile ("h200") predicts for that profile; a
 * --profile alone predicts for the profile's device.  No device at all:
 * this CPU through lavapipe.  0, or CW_EXIT_USAGE with err. */
int pipeline_static_profile(const cw_options *o, device_profile *prof,
                            report_device *rd, cw_error *err);

/* Static stage: fills kr (name, shader, findings, prediction). */
void pipeline_check_kernel(const plan_kernel *k, const device_profile *prof,
                           kernel_report *kr, kernel_artifacts *art);

struct vk_ctx;

/* The same, with an open device (run, the TUI when measuring): a GPU
 * kernel's pipeline is built (not run) to read the registers per
 * invocation the driver reports through
 * VK_KHR_pipeline_executable_properties, which the model's occupancy then
 * uses; where the driver does not report them the prediction says why.
 * ctx NULL is pipeline_check_kernel(). */
void pipeline_check_kernel_on(struct vk_ctx *ctx, const plan_kernel *k,
                              const device_profile *prof, kernel_report *kr,
                              kernel_artifacts *art);

struct run_options;
struct vk_device_info;

/* The report's device block from a Vulkan device. */
void pipeline_report_device(report_device *rd, const struct vk_device_info *d);
/* Live stage: runs the kernel (GPU through ctx, CPU natively), fills
 * kr->measurement and kr->divergence.  Returns 0 or CW_EXIT_ENV. */
int pipeline_measure_kernel(struct vk_ctx *ctx, const plan_kernel *k,
                            const device_profile *prof,
                            kernel_artifacts *art,
                            const struct run_options *ro, double tolerance,
                            kernel_report *kr);

#endif
