/* load.h - how busy the machine was while a kernel was measured.
 *
 * Contract: load_begin() takes a snapshot of the machine's CPU accounting
 * (/proc/stat: busy and steal time over all CPUs; this process's CPU time
 * with getrusage, which counts every thread, a CPU Vulkan device's workers
 * included); load_end() takes another and fills a machine_load (report.h)
 * with the window's averages in CPUs: what this process used, what every
 * other process used, what the hypervisor stole, and the 1-minute load
 * average; busy as machine_load_busy() (core/verdict_load.h) says.
 * Where /proc/stat cannot be read, valid stays 0 and nothing is judged.
 * Environment: CW_LOAD_PROC_STAT and CW_LOAD_PROC_LOADAVG name other files
 * (tests), CW_LOAD_IGNORE=1 leaves valid at 0.
 * Collectors measure; core/verdict_load.h decides what a busy window means
 * for the verdict.
 */
#ifndef CW_LOAD_H
#define CW_LOAD_H

#include "report.h"

typedef struct load_window {
    int ok;
    double t;                       /* monotonic seconds */
    unsigned long long busy, steal; /* jiffies over all CPUs */
    double self_s;                  /* this process's CPU seconds */
} load_window;

void load_begin(load_window *w);
void load_end(const load_window *w, machine_load *out);
#endif
