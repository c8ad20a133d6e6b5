/* tui.h - the interactive ncurses front end (issue 6).
 *
 * Contract: tui_run() owns the terminal from start to return: it restores
 * it on every exit path (quit, SIGINT, SIGTERM, SIGHUP, fatal error).
 * Analysis and measurement go through session.h in a worker thread; the
 * UI thread never waits on a device.  Headless: snapshot_view ("main",
 * "detail", "source", "roofline", "device", "help") prints a text
 * rendering of that view at cols x rows and returns without curses; frames
 * > 0 quits after that many frames.  Returns an exit code of the contract:
 * interactive, 0 on quit (after SIGINT/SIGTERM/SIGHUP the process dies of
 * the signal once the terminal is restored); snapshot, what `run` (or
 * `check` when measure == 0) would return for the kernels shown; 2 for
 * usage errors (no terminal, unknown view, bad or missing theme).
 * Design and modules: docs/tui.md.
 */
#ifndef CW_TUI_H
#define CW_TUI_H

#include <stddef.h>

#include "session.h"
#include "plan.h"

typedef struct tui_args {
    plan *plans;
    size_t nplans;
    const cw_options *opt;
    const char *snapshot_view; /* NULL: interactive */
    int frames;                /* 0: until quit */
    int cols, rows;            /* snapshot size; 0 = $COLUMNS/$LINES or 80x24 */
    int measure;               /* 1: run kernels live (default); 0: static only */
    char *const *reports;      /* report files to show instead of plans
                                  (tui/reports.h): no device, read-only */
    size_t nreports;
} tui_args;

int tui_run(const tui_args *a);

/* Non-zero when every argument is a report file rather than a plan: the
 * CLI then passes them as tui_args.reports (tui/reports.h). */
int tui_reports_detect(int argc, char *const *argv);

#endif
