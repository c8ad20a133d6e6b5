/* bufinit.h - buffer contents from a plan's "init" (ARCHITECTURE §3): the
 * one initialiser, with the one random generator, used by the Vulkan and
 * native-CPU runners to fill buffers and by the evaluator to know the
 * contents it may rely on.
 *
 * Contract:
 *   bufinit_fill(dst, bytes, elem, b, seed, err) writes bytes bytes:
 *     random  (default) per element of type elem: floats uniform in
 *             [-1, 1), signed integers in [-8, 8], unsigned in [0, 16),
 *             bools 0/1, from bufinit_rng seeded by bufinit_seed(seed,
 *             set, binding): reproducible, never all zeros;
 *     zero, ramp (element i = i), a constant (every element);
 *     values  the plan's list, element by element in elem's type, then
 *             zeros.  With elem unknown (a block without a typed array)
 *             each value fills one 32-bit word: an integer literal as a
 *             32-bit integer, a literal with a fraction or exponent as a
 *             float;
 *     file    the file's raw bytes, then zeros (a longer file is cut).
 *   A tail shorter than one element gets deterministic non-zero bytes.
 *   Returns 0, or non-zero with err set when the file cannot be read.
 *   bufinit_given(b) is 1 when the plan fixes the contents (anything but
 *   random): only then may an analysis rely on them.
 *   bufinit_peek(dst, from, len, bytes, elem, b, seed) writes bytes [from,
 *   from + len) of what bufinit_fill writes into a buffer of `bytes` bytes
 *   (from + len <= bytes), without the rest (the generator is counter based: element i is
 *   the (i+1)-th output of bufinit_rng from the seed).  For random, zero,
 *   ramp and constant contents; returns -1 (dst untouched) for values and
 *   files.  A timing model may use it to see the runner's stream (the
 *   contents of a random buffer are the runner's, not a property of the
 *   kernel: no finding may rest on them).
 */
#ifndef CW_BUFINIT_H
#define CW_BUFINIT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "plan.h"

typedef struct bufinit_elem {
    uint8_t bytes;      /* 1, 2, 4, 8; 0: unknown (32-bit words) */
    uint8_t is_float;
    uint8_t is_signed;
    uint8_t is_bool;
} bufinit_elem;

uint64_t bufinit_rng(uint64_t *state);
uint64_t bufinit_seed(uint64_t seed, uint32_t set, uint32_t binding);
int bufinit_given(const plan_buffer *b);
int bufinit_fill(uint8_t *dst, uint64_t bytes, bufinit_elem elem,
                 const plan_buffer *b, uint64_t seed, cw_error *err);
int bufinit_peek(uint8_t *dst, uint64_t from, uint64_t len, uint64_t bytes,
                 bufinit_elem elem, const plan_buffer *b, uint64_t seed);

#endif
