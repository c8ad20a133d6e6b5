/* progress.h - what `run` is doing, on standard error, while it does it.
 *
 * Contract: progress_open() decides once: on when stderr is a terminal and
 * -q was not given, off otherwise (pipes, files, CI logs get nothing
 * extra).  Then, per kernel, progress_kernel() says "kernel i of N",
 * progress_sample() (the run_options.on_sample callback) updates the count
 * of samples taken and their running median at most 10 times a second,
 * and progress_done() leaves one line per kernel with its result:
 *
 *   ==PROF== [2/7] reduce: 15 samples, median 404 µs · slower
 *
 * Lines in progress are redrawn in place (carriage return, erase to the end
 * of the line), from the first sample on (the static stage prints its own
 * warnings); nothing is written when off.
 */
#ifndef CW_PROGRESS_H
#define CW_PROGRESS_H

#include <stddef.h>

#include "report.h"

typedef struct progress {
    int on;
    size_t index, total;   /* kernel i (1-based) of total */
    char name[128];
    unsigned samples;
    double last_draw_s;
    double recent[64];     /* latest samples, for the running median */
    unsigned nrecent;
} progress;

void progress_open(progress *p, size_t total, int quiet);
void progress_kernel(progress *p, size_t index, const char *name, int measured);
void progress_sample(void *p, double sample_us);
void progress_done(progress *p, const kernel_report *kr);

#endif
