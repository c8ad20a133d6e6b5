/* model_draw.h - addresses drawn from an index's range, for the traffic
 * simulation (model_traffic.h).
 *
 * An access whose index depends on buffer contents (a hash of a key read
 * from a buffer, a column index of a random structure) reaches the
 * simulation as an interval [offset, offset_hi] (eval.h eval_access): the
 * evaluator does not rely on random contents (core/bufinit.h).  Left out
 * of the stream, such accesses were priced as the best case (coalesced and
 * reused) and a 256-counter histogram came out as distinct-address
 * atomics.  An index reduced to a known range (h % bins, clamp) is, for a
 * well-mixed h, uniform over that range; the simulation draws it so, and
 * the contention and cache models see the stream the hardware sees.  The
 * prediction says so (model_traffic.c) and its range keeps the best and
 * worst cases (model.c).
 *
 * Contract:
 *   draw_init(d, nacc, lanes) prepares for nacc accesses and workgroups of
 *   `lanes` invocations; draw_window(d) starts a window (counters to 0);
 *   draw_free(d) releases it.
 *   draw_offset(d, a, acc, slot, extent, warming, &off) returns 1 and a
 *   byte offset in [a->offset, min(a->offset_hi, extent - a->size)] when
 *   a's address is an interval it can draw from (offset >= 0; extent 0:
 *   the variable's size is unknown, then spans over 1 MiB are not drawn),
 *   else 0.  The draw is a hash, so it is reproducible: of the group
 *   (slot), the invocation, how many times this invocation has executed
 *   this access in the group, the binding and the interval's width.  Two
 *   accesses of one record (x and y of table[h]) therefore land on the
 *   same record; the cost is that two different hashes into one buffer at
 *   one iteration land on one place too.  Offsets are 4-byte words aligned
 *   to the access's size from the interval's start.  Out of memory: 0.
 */
#ifndef CW_MODEL_DRAW_H
#define CW_MODEL_DRAW_H

#include <stdint.h>

#include "eval.h"

typedef struct draw_state {
    uint32_t nacc, lanes, slots;
    uint32_t **execs;          /* per access: executions per (slot, lane) */
} draw_state;

int draw_init(draw_state *d, uint32_t nacc, uint32_t lanes, uint32_t slots);
void draw_window(draw_state *d);
void draw_free(draw_state *d);
int draw_offset(draw_state *d, const eval_access *a, uint32_t acc,
                uint32_t slot, uint64_t extent, int warming, int64_t *off);

#endif
