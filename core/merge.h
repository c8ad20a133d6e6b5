/* merge.h - join the reports of a sharded or multi-device run into one
 * (clockwork merge REPORT... -o FILE).
 *
 * Contract: merge_reports() reads nothing but the reports' provenance
 * (never their file names).  Reports of one launch (same set_id, shard
 * count and job) form a set; every shard of a set must be there exactly
 * once, and all reports must come from one tool version: otherwise it
 * returns CW_STATUS_INPUT with err naming what is missing, duplicated or
 * different.  Complete reports (shard 0/1) of one set from different
 * devices are the fleet case: the same kernel measured on several
 * devices, kept once per device (fleet.h judges them).  The merged report
 * lists its inputs in `sources` (each kernel's `source` points there),
 * holds the kernels in set order (command-line plan order, then plan
 * position).  Exit codes are the program's: the caller fills each source's
 * exit status and the provenance's worst one (merge_exit_codes(),
 * app/merge_cmd.h).
 * Inputs are not modified; out owns copies.  A refused merge leaves out
 * owning nothing (zeroed: report_free() on it is harmless, not needed).
 */
#ifndef CW_MERGE_H
#define CW_MERGE_H

#include <stddef.h>

#include "error.h"
#include "report.h"

int merge_reports(const report *in, const char *const *files, size_t n, report *out,
                  cw_error *err);

/* The key that tells devices apart in a fleet: node (or host), then the
 * device uuid (or name). Writes "n1/3f2a..." into buf. */
void merge_device_key(const report_provenance *p, const report_device *d, char *buf,
                      size_t n);

#endif
