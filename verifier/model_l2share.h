/* model_l2share.h - L2 hits the sample cannot see: gathers spread over a
 * table that every workgroup shares.
 *
 * Contract: l2_shared_hit_fraction(p, footprint, reuse, sectors_per_line)
 * is the steady-state share of a load's sector requests that L2 serves
 * when the requests fall uniformly at random over `footprint` bytes shared
 * by the whole dispatch (a hashed gather), each sector requested `reuse`
 * times over the dispatch on average.  The simulation's L2 is the
 * window's share of the device's, which is right for data each workgroup
 * owns and wrong for a table all of them read: there the whole L2 (or one
 * partition of it, when units copy far data into their own partition)
 * holds a part of the table whatever group fetched it.  Pure; 0 when the
 * profile lacks l2_partitions (the term is then off).
 *
 * Model (docs/model.md section 3.1): an LRU cache of K lines (the L2's
 * bytes / l2_partitions / line) under uniform requests over N lines keeps
 * a line while it was requested within the last T accesses, N (1 - e^{-T/N})
 * = K (Che's approximation); a line is allocated whole and its sectors
 * filled one by one, so a request hits when its own sector was requested
 * within T: h = 1 - e^{-T / (s N)} = 1 - (1 - K/N)^{1/s} for s sectors a
 * line; everything hits once K >= N.  A sector cannot hit more often than
 * its requests after the first: h <= 1 - 1/reuse.
 */
#ifndef CW_MODEL_L2SHARE_H
#define CW_MODEL_L2SHARE_H

#include "profile.h"

double l2_shared_hit_fraction(const device_profile *p, double footprint,
                              double reuse, double sectors_per_line);

#endif
