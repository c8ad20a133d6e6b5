/* eval_chase.h - which accesses chase a pointer: their address is computed
 * from a value that a load from a buffer returned (x[col[j]], p =
 * next[p]).  Such an access waits for that load's round trip before it can
 * be issued, whether or not the evaluator knows the value: a CSR column
 * buffer the plan gives (`init` values or a file) is a chase as much as
 * one it leaves random.
 *
 * From the module's SSA alone: an access's pointer is walked back through
 * access-chain indices and every value operand (arithmetic, conversions,
 * selects, composites, phis, GLSL.std.450 calls); a load of a Function or
 * Private variable follows the values stored into that variable anywhere
 * in the module (flow-insensitive); a load of a storage, uniform or
 * physical-storage buffer is a source and ends that path (Input, push
 * constants and workgroup memory are not chases).
 *
 * Contract:
 *   ev_chase_init(c, m) prepares the store lists (0, or -1 out of memory:
 *   then no access is a chase); ev_chase_free(c).
 *   ev_chase_sources(c, m, inst, out, cap) writes up to cap instruction
 *   indices of the buffer loads access instruction `inst` (a load, store
 *   or atomic) takes its address from and returns how many it found.  A
 *   walk stops after EV_CHASE_STEPS ids: a module too tangled for that
 *   reports no chase (the model then keeps its affine rule).
 */
#ifndef CW_EVAL_CHASE_H
#define CW_EVAL_CHASE_H

#include <stddef.h>
#include <stdint.h>

#include "spirv.h"

#define EV_CHASE_STEPS 4096

typedef struct ev_chase {
    uint32_t bound;
    uint32_t *first;   /* per variable id: its stored values in vals[first[id]
                          .. first[id + 1]) */
    uint32_t *vals;
    uint32_t *stamp;   /* per id: the walk that last visited it */
    uint32_t walk;
} ev_chase;

int ev_chase_init(ev_chase *c, const spv_module *m);
void ev_chase_free(ev_chase *c);
size_t ev_chase_sources(ev_chase *c, const spv_module *m, uint32_t inst,
                        uint32_t *out, size_t cap);

#endif
