/* pfm.h - libpfm4 + perf_event_open counters around a measured region.
 *
 * Contract: pfm_session_open() encodes each event with libpfm4 and opens it
 * with perf_event_open; it does not fail because an event is unavailable:
 * such an event is kept with its reason (no PMU -> ENOENT, paranoid level ->
 * EACCES with the level and what to do, unsupported, unknown name).  It
 * fails (non-zero, err) only on a malformed event list.  Counting is
 * user-mode unless running as root; with inherit=1 threads created after
 * opening are counted too (open before creating the Vulkan device so
 * lavapipe's workers are included).  start/stop bracket the region;
 * pfm_session_read() appends one counter_value per event to the
 * measurement (scaled and marked when multiplexed; unavailable ones with
 * available=0 and the reason, never 0).
 * Environment: CW_PFM_DISABLE=1 forces every event unavailable (tests).
 */
#ifndef CW_PFM_H
#define CW_PFM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "report.h"

typedef struct pfm_session pfm_session;

/* Default events: cycles, instructions, cache-references, cache-misses,
 * branch-misses, task-clock, page-faults, context-switches. */
extern const char *const pfm_default_events[];

/* Split "a,b,c" into names (validated syntax: [pmu::]event[:umask...]).
 * Caller frees with pfm_free_event_list. */
int pfm_parse_event_list(const char *text, char ***names, size_t *n,
                         cw_error *err);
void pfm_free_event_list(char **names, size_t n);

/* A user's event list: syntax, then every name against libpfm4's tables
 * (no counter is opened).  Non-zero with err naming the first unknown
 * event or attribute (an input error).  When libpfm4 cannot initialise
 * or CW_PFM_DISABLE is set, names cannot be checked: only the syntax is. */
int pfm_validate_events(const char *events, cw_error *err);
int pfm_session_open(const char *events, int inherit, pfm_session **out,
                     cw_error *err);
void pfm_session_start(pfm_session *s);
void pfm_session_stop(pfm_session *s);
void pfm_session_read(pfm_session *s, measurement *m);
/* A multiplexed count scaled to the whole enabled time (libpfm4's
 * perf_examples perf_scale): value x enabled / running.  *scaled = 1 when
 * running < enabled.  Returns 0, or -1 when the event never ran (running
 * == 0 with enabled > 0): there is no count, not a count of 0. */
int pfm_scale_count(uint64_t value, uint64_t enabled, uint64_t running,
                    double *out, int *scaled);
/* Forget the counts accumulated so far (between kernels of one run). */
void pfm_session_reset(pfm_session *s);
/* Brackets (start/stop pairs) counted since open or the last reset. */
unsigned long pfm_session_brackets(const pfm_session *s);
/* Availability of every event without a measurement (device view). */
void pfm_session_describe(pfm_session *s, measurement *m);
void pfm_session_close(pfm_session *s);

#endif
