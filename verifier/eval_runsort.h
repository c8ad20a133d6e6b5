/* eval_runsort.h - the sort of a footprint's byte ranges (ev_run) by lo.
 *
 * Contract: ev_run_sort(a, n) orders a[0..n) by lo, ascending; the order
 * of ranges with equal lo is unspecified (ev_runs_normalize joins them, so
 * its result does not depend on it).  Pure, no I/O; allocates a scratch
 * copy of the array only when n is above a few dozen.
 *
 * Why a natural merge sort: a footprint arrives as a few monotone
 * sequences (each lane's accesses in order, a skipped loop's strided
 * ranges ascending or descending, after a sorted prefix left by the last
 * normalisation), so finding those runs and merging them costs
 * O(n log runs) where a quicksort paid O(n log n) on every normalisation.
 */
#ifndef CW_EVAL_RUNSORT_H
#define CW_EVAL_RUNSORT_H

#include <stddef.h>

#include "eval_int.h"

void ev_run_sort(ev_run *a, size_t n);

#endif
