/* devchild.h - one GPU kernel measured in a child process (issue 17).
 *
 * Why: the TUI measured in its own process, so a crash inside the Vulkan
 * driver (SIGSEGV compiling or dispatching a kernel, abort when memory runs
 * out) ended the whole TUI with every result on the screen.  `run` has its
 * own supervision (supervise.h); this is the TUI's.
 *
 * How: devchild_measure() forks a child that opens a measuring session of
 * its own (session_open, GPU only: the parent never loads the driver),
 * predicts the kernel for the device and measures it, sending each sample
 * and then the one-kernel report over a pipe.  The parent's analysis of
 * the kernel (job->analysed, job->art: the costly part of the static
 * stage) is the child's too, inherited with the parent's memory by the
 * fork, when the device's profile is the one it was made with
 * (job->prof, compared byte for byte: a profile is plain data); the child
 * then only asks the driver for the kernel's facts (registers) and runs
 * the model on them (session_predict_kernel), which is what the analysis
 * in the child gave before.  When the profiles differ (a calibration
 * since the TUI chose its profile, a profile without limits that takes
 * the opened device's limits and shape), or no analysis is handed over,
 * the child analyses the kernel again for its device, as every check that
 * reads the device's limits must.  The child runs
 * in its own process group (Ctrl-C and Ctrl-\ go to the TUI only, and the
 * child dies with it), with default signal handling (the TUI's handlers
 * restore the terminal: not the child's job) and stdin and stdout on
 * /dev/null, stderr in a memory file (nothing may reach the TUI's screen;
 * its warnings are handed to job->on_warning afterwards).
 *
 * Contract: devchild_measure(job, kr) with kr holding the kernel's static
 * report.  Returns
 *   DEVCHILD_MEASURED: kr replaced by the child's report;
 *   DEVCHILD_KERNEL_DIED: the child died (signal) or fell silent for
 *     job->silence_s while this kernel ran; kr keeps its static part, its
 *     measurement.error names the signal and that the TUI went on;
 *   DEVCHILD_NO_DEVICE: the device could not be opened (no driver), or
 *     the child died or hung opening it; *why (malloc'd) says it, and
 *     kr->measurement.error too; the caller stops forking: every further
 *     GPU kernel gets the same sentence (devchild_unmeasured);
 *   DEVCHILD_CANCELLED: *job->cancel was set; the child was stopped.
 * job->on_sample(job->user, us) is called in the caller's thread for each
 * sample.  *job->cancel is read (never written) while waiting.
 * CW_NO_SUPERVISE=1 makes devchild_enabled() 0: the caller measures
 * in-process as before.
 */
#ifndef CW_DEVCHILD_H
#define CW_DEVCHILD_H

#include "session.h"

typedef enum {
    DEVCHILD_MEASURED = 0,
    DEVCHILD_KERNEL_DIED,
    DEVCHILD_NO_DEVICE,
    DEVCHILD_CANCELLED,
} devchild_status;

typedef struct devchild_job {
    const cw_options *opt;
    const plan_kernel *k;
    /* the parent's analysis (pipeline_analyse_kernel: the report before
     * the prediction, its artifacts) and the GPU profile it was made with;
     * any NULL: the child analyses the kernel itself */
    const kernel_report *analysed;
    const kernel_artifacts *art;
    const device_profile *prof;
    int *reanalysed;          /* may be NULL: set to 1 when the child
                                 analysed the kernel again, else 0 */
    void (*on_sample)(void *user, double sample_us);
    void *user;
    volatile int *cancel;
    double silence_s;         /* a child silent this long is killed */
    /* the child's warnings ("clockwork: warning: ..." lines on its stderr,
     * e.g. an unusable shader-cache folder), each passed here once the
     * child is gone; NULL: dropped */
    void (*on_warning)(void *user, const char *line);
} devchild_job;

int devchild_enabled(void);
devchild_status devchild_measure(const devchild_job *job, kernel_report *kr, char **why);
/* kr (static) gets measurement.error = why and a "not measured" verdict. */
void devchild_unmeasured(kernel_report *kr, const char *why);

#endif
