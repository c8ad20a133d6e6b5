/* worker.h - the TUI's measurement thread and its message queue.
 *
 * Contract: worker_start() starts one pthread that owns every device
 * object: it opens the session (session.h: device when measuring, profile,
 * run options), probes the counters, then for every plan kernel runs
 * the static stage (session_analyse_kernel() and session_predict_kernel(),
 * fast) and, unless static-only or paused, session_measure_kernel()
 * with a live on_sample callback (a GPU kernel in a child process that
 * predicts it for the opened device from the worker's analysis,
 * devchild.h).  It posts tui_msg messages (state.h) to a
 * small locked queue; the UI thread takes them with worker_drain() and
 * never waits on the device.  Once a second while idle (and between
 * kernels) it polls the mtime of every plan and shader file: a changed
 * shader is re-analysed and re-measured, a changed plan is reloaded (a bad
 * plan is reported on the status line and the old one kept).
 * worker_pause()/worker_rerun()/worker_loop() steer it; worker_stop() cancels any
 * sampling in progress, joins the thread and frees everything.
 * The plans passed in stay the caller's; reloaded ones are the worker's.
 */
#ifndef CW_TUI_WORKER_H
#define CW_TUI_WORKER_H

#include <stddef.h>

#include "state.h"
#include "tui.h"

typedef struct worker worker;

int worker_start(const tui_args *a, worker **out);
/* Move every queued message into *msgs (caller frees each with
 * state_msg_free after state_apply, then the array); returns the count. */
size_t worker_drain(worker *w, tui_msg **msgs);
void worker_pause(worker *w, int paused);
void worker_rerun(worker *w);
/* Loop mode: after each round, rest a second and measure everything
 * again, until turned off. */
void worker_loop(worker *w, int on);
/* Non-zero when every kernel is checked (and measured, when measuring) and
 * nothing is queued: what a snapshot waits for. */
int worker_settled(worker *w);
/* Block until settled or timeout_s passes (snapshot mode). */
int worker_wait_settled(worker *w, double timeout_s);
void worker_stop(worker *w);

#endif
