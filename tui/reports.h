/* reports.h - the TUI's second data source: saved reports instead of a live
 * worker (`clockwork tui report.json ...`), with no device opened.
 *
 * Contract: tui_reports_detect() says whether every argument is a report
 * file (a JSON object with "schema" and "tool"; plans have neither), so the
 * CLI can tell `tui plan.json` from `tui report.json`.  tui_reports_load()
 * reads the reports; several are joined as `clockwork merge` would (an
 * incomplete or mixed set fails, err says why) and judged as a fleet
 * (device-outlier findings); then it folds them into the state through
 * the same messages the worker posts (state.h): one group of kernels per
 * host/device, in the order the sources came, each kernel labelled with
 * its group when there are several.  The state is then read-only: there is
 * nothing to re-run.  Returns 0, or CW_STATUS_INPUT.
 */
#ifndef CW_TUI_REPORTS_H
#define CW_TUI_REPORTS_H

#include <stddef.h>

#include "state.h"
#include "tui.h" /* tui_reports_detect */

int tui_reports_load(tui_state *st, char *const *files, size_t n, double tolerance,
                     char *err, size_t errlen);

#endif
