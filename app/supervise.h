/* supervise.h - a run that survives its kernels (issue 17).
 *
 * Why: the GPU work runs inside the Vulkan driver, in this process.  A
 * driver that crashes on one kernel (SIGSEGV in shader compilation or in a
 * dispatch) used to take every result of the run with it.
 *
 * How: `run` forks before it touches the device; the child does the whole
 * run as before and, after each kernel, streams that kernel's report (JSON)
 * to the parent, which only waits.  If the child dies of a signal, the
 * parent knows which kernel had started and forks a new child (which
 * inherits what the parent received): the kernels already finished are
 * copied into its report as they were, the crashing kernel gets only its
 * static stage (without the device) and a measurement error naming the
 * signal, and the run goes on with the next kernel.  A crash while opening
 * the device makes the next child run without one.  The child that gets to
 * the end writes the report; the parent exits with its status.
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT to the parent go to the child too and both
 * die of the signal, as one process would.  CW_NO_SUPERVISE=1 turns it off.
 *
 * Contract, called by `run` in this order:
 *   supervise_begin(&code, timeout_s): 1 in the parent when the run is
 *     over (return code); 0 in the child (go on) or when supervision is off.
 *     While a kernel runs, a child silent for max(60 s, 6 x timeout_s) (no
 *     sample, no result: a hang in the driver outside the hang guard, e.g.
 *     compiling a pipeline) is killed and that kernel reported as hung.
 *   supervise_open_crash(): non-NULL in a child after an earlier child
 *     crashed while opening the device: that sentence; do not open it.
 *   supervise_known(g, kr, &crash): 1 when kernel g was finished by an
 *     earlier child (kr replaced by that kernel's report); 0 otherwise, with
 *     *crash the sentence when kernel g crashed an earlier child (run its
 *     static stage without the device and report the crash), else NULL.
 *   supervise_kernel_start(g) / supervise_kernel_done(g, kr) around each
 *     kernel that runs here.
 *   supervise_report_written(code) once the report is written, before the
 *     device is torn down (a crash in teardown then loses nothing).
 * All of them do nothing when not supervised.
 */
#ifndef CW_SUPERVISE_H
#define CW_SUPERVISE_H

#include <stddef.h>

#include "report.h"

int supervise_begin(int *code, double timeout_s);
/* The sampling callback of the kernels run here: calls fn (set once with
 * supervise_chain_sample) and tells the parent the run is alive. */
void supervise_chain_sample(void (*fn)(void *user, double sample_us));
void supervise_sample(void *user, double sample_us);
const char *supervise_open_crash(void);
int supervise_known(size_t g, kernel_report *kr, const char **crash);
void supervise_kernel_start(size_t g);
void supervise_kernel_done(size_t g, const kernel_report *kr);
void supervise_report_written(int code);
/* One kernel's report as JSON text (malloc'd; NULL on out of memory), and
 * back (0, or -1 when the text is not one kernel's report; kr replaced). */
char *supervise_kernel_json(const kernel_report *kr);
/* "the Vulkan driver crashed (killed by SIGSEGV: ...) DURING" (malloc'd). */
char *supervise_crash_sentence(int sig, const char *during);
int supervise_kernel_from_json(const char *json, kernel_report *kr);

#endif
