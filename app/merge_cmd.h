/* merge_cmd.h - `clockwork merge REPORT... [-o FILE] [--format F]`: read the
 * reports, join them (core/merge.h), judge the fleet (core/fleet.h), write
 * one report.  Exit: 2 when a report is unreadable or the set is
 * incomplete, duplicated or mixed; else the worst exit status of the
 * inputs (a write failure: 2). */
#ifndef CW_MERGE_CMD_H
#define CW_MERGE_CMD_H

#include "session.h" /* cw_options */

int merge_main(const cw_options *opt, int argc, char **argv);

/* Fill the exit statuses of a merged report from its n inputs (in the
 * order merge_reports() took them): each source's, the one its writer
 * recorded or else the one its contents imply, and the provenance's, the
 * worst of them.  Returns that worst exit code. */
int merge_exit_codes(const report *in, size_t n, report *merged);

#endif
